import Scenarios
import StepScripts
import Testing
import TextGrid

@testable import LeakLab

/// Focus and scrolling: Tab moves the focus, and the focused pane takes the
/// arrows and the page keys (issue 10, "what users of htop, lazygit and k9s expect").
@MainActor
@Suite struct PaneTests {
  /// The real catalogue at the minimum size: long code, long paths.
  func app(size: Size = Size(width: 80, height: 24)) -> TestApp {
    let app = TestApp(catalogue: Catalogue.all)
    app.model.resize(to: size)
    return app
  }

  func lines(_ app: TestApp) -> [String] {
    render(app.state, size: app.state.screenSize).lines
  }

  @Test func tabMovesTheFocusThroughThePanesAndTheStatusBarNamesIt() {
    let app = app()
    #expect(app.state.focus == .catalogue)
    #expect(lines(app).last?.hasPrefix(" Scenarios ") == true)
    app.send(.focusNextPressed)
    #expect(app.state.focus == .about)
    #expect(lines(app).last?.hasPrefix(" About ") == true)
    app.send(.focusNextPressed)
    #expect(app.state.focus == .code)
    #expect(lines(app).last?.hasPrefix(" Code ") == true)
    app.send(.focusNextPressed, .focusNextPressed)
    #expect(app.state.focus == .log)
    app.send(.focusNextPressed)
    #expect(app.state.focus == .catalogue)
    app.send(.focusPreviousPressed)
    #expect(app.state.focus == .log)
  }

  @Test func tabSkipsTheDetectorWhileTheOverlayIsHidden() {
    let app = app()
    app.send(.overlayKeyPressed, .overlayKeyPressed)
    #expect(app.state.overlayMode == .hidden)
    app.send(.focusNextPressed, .focusNextPressed, .focusNextPressed)
    #expect(app.state.focus == .log)
  }

  @Test(arguments: [Size(width: 80, height: 24), Size(width: 120, height: 40)])
  func theCodePaneShowsTheMarkedLineOfEveryScenario(size: Size) {
    let app = app(size: size)
    for (index, scenario) in Catalogue.all.enumerated() {
      app.send(.scenarioSelected(id: scenario.id))
      #expect(app.state.selectedIndex == index)
      // `●` marks the form's line, `▶` the line `leaklab lint` flags (often the same one).
      #expect(lines(app).contains { $0.contains("│● ") || $0.contains("│▶ ") }, "\(scenario.id) at \(size)")
    }
  }

  @Test func theFixLineIsWrappedNotCut() {
    let app = app()
    app.send(.scenarioSelected(id: "delayed-dispatch"))
    let code = CodePaneView.content(app.state, width: 30).lines.map(\.0)
    #expect(code.allSatisfy { $0.displayWidth <= 30 })
    let joined = code.joined(separator: " ").split(separator: " ").joined(separator: " ")
    #expect(joined.contains("{ [weak self] in self?.statusLabel.text = \"Synced\" }"))
  }

  @Test func theFocusedCodePaneScrollsAndStopsAtItsEnds() throws {
    let app = app()
    app.send(.focusNextPressed, .focusNextPressed)
    let metrics = try #require(PaneMetrics.of(.code, in: app.state))
    #expect(metrics.content.height > metrics.viewport.height)
    app.send(.scrollKeyPressed(.top))
    #expect(app.state.scroll[.code] == .top)
    app.send(.moveDownPressed)
    #expect(app.state.scroll[.code] == ScrollPosition(y: 1))
    app.send(.scrollKeyPressed(.bottom))
    let bottom = metrics.content.height - metrics.viewport.height
    #expect(app.state.scroll[.code] == ScrollPosition(y: bottom))
    app.send(.scrollKeyPressed(.pageDown), .moveDownPressed)
    #expect(app.state.scroll[.code] == ScrollPosition(y: bottom))
    app.send(.scrollKeyPressed(.pageUp))
    #expect(app.state.scroll[.code] == ScrollPosition(y: bottom - (metrics.viewport.height - 1)))
    // Another scenario shows its own marked line again.
    app.send(.focusPreviousPressed, .focusPreviousPressed, .moveDownPressed)
    #expect(app.state.scroll[.code] == nil)
  }

  @Test func scrollingStartsFromWhatIsShown() throws {
    let app = app(size: Size(width: 120, height: 40))
    let shown = try #require(lines(app).first { $0.contains("─ ↑ ") && $0.hasSuffix("─┘") })
    let above = try #require(Int(shown.split(separator: "↑ ")[1].prefix { $0.isNumber }))
    app.send(.mouseUsed(MouseEvent(.wheelUp, at: Point(x: 90, y: 8))))
    #expect(app.state.scroll[.code] == ScrollPosition(y: above - 3))
  }

  @Test func theLogScrollsBackAndFollowsAgainAtTheEnd() throws {
    let app = app()
    for _ in 0..<3 {
      app.send(.openKeyPressed, .actionKeyPressed(1), .closeKeyPressed)
      app.advance(.seconds(2))
    }
    app.send(.focusPreviousPressed)
    #expect(app.state.focus == .log)
    let newest = String(try #require(app.state.log.last?.text).prefix(20))
    #expect(lines(app).contains { $0.contains(newest) })
    app.send(.scrollKeyPressed(.top))
    #expect(lines(app).contains { $0.contains("opened   Method passed as a completion handler") })
    #expect(!lines(app).contains { $0.contains(newest) })
    #expect(lines(app).contains { $0.contains(" more ─┘") })
    app.send(.scrollKeyPressed(.bottom))
    #expect(app.state.scroll[.log] == nil)
    // Following again: a new line shows up by itself.
    app.send(.openKeyPressed)
    #expect(lines(app).contains { $0.contains("opened   Method passed as a completion handler") })
  }

  @Test func theDetectorsPathWrapsAndItsCursorPicksTheLeakThatEAndYUse() {
    let app = app()
    app.send(.scenarioSelected(id: "alert-action-capture"), .openKeyPressed)
    app.send(.actionKeyPressed(1), .actionKeyPressed(2), .closeKeyPressed)
    app.advance(.seconds(1))
    #expect(app.label == "Leaked: AlertController#1, DraftsScreen#1")
    let screen = lines(app)
    #expect(ScreenLabelReader.label(in: screen) == "Leaked: AlertController#1, DraftsScreen#1")
    #expect(screen.contains { $0.contains("↳ retain cycle: AlertController#1") })
    #expect(screen.contains { $0.contains("      → actions[1]: AlertAction#1") })
    #expect(!screen.contains { $0.contains("→ actions[1]: AlertAction#1 →") })
    app.send(.focusNextPressed, .focusNextPressed, .focusNextPressed)
    #expect(app.state.focus == .detector)
    app.send(.moveDownPressed)
    #expect(app.state.selectedLeakIndex == 1)
    // The cursor's leak is scrolled into view under the label, which stays.
    #expect(lines(app).contains { $0.contains("DraftsScreen#1     open") })
    #expect(ScreenLabelReader.label(in: lines(app)) == "Leaked: AlertController#1, DraftsScreen#1")
    app.send(.explainKeyPressed)
    #expect(app.state.explainedLeakIndex == 1)
    #expect(lines(app).contains { $0.contains("2 of 2: DraftsScreen#1") })
  }

  @Test func theExplainViewShowsTheWholePathAndScrolls() {
    let app = app()
    app.send(.scenarioSelected(id: "notification-observer"), .openKeyPressed)
    app.send(.actionKeyPressed(1), .closeKeyPressed)
    app.advance(.seconds(1))
    let path = app.state.report.leaks.first?.retainPath ?? ""
    #expect(path.contains("(conservative)"))
    app.send(.explainKeyPressed)
    let frame = ExplainView.frame(app.state, in: AppLayout(size: app.state.screenSize, state: app.state).body)
    let content = ExplainView.content(app.state, width: frame.viewport.width, room: frame.viewport.height)
    // Every object and reference of the path is drawn, whole, in the content.
    let text = content.lines.joined(separator: "\n")
    for part in [
      "InboxScreen#1", "center (strong)", "NotificationCenter", "word 3 (conservative)", "Dictionary storage",
      "values[0].values[0].storage.values[0]", "NotificationCenter._addObserver<A>(_:object:using:)",
      "captures closure in InboxScreen.observeInbox()",
    ] {
      #expect(text.contains(part), "\(part)")
    }
    #expect(content.height > frame.viewport.height)
    app.send(.scrollKeyPressed(.bottom))
    #expect(app.state.explainScroll.y == content.height - frame.viewport.height)
    #expect(lines(app).contains { $0.contains("─ ↑ \(app.state.explainScroll.y) ─") })
  }

  // MARK: Issue 26

  /// Defect 2: the notes were cut with `…` and could not be reached.
  @Test(arguments: [Size(width: 80, height: 24), Size(width: 100, height: 30)])
  func theAboutPaneIsFocusedByTabScrollsAndSaysWhatIsBelow(size: Size) throws {
    let app = app(size: size)
    app.send(.scenarioSelected(id: "viper-module"))
    let metrics = try #require(PaneMetrics.of(.about, in: app.state))
    #expect(metrics.content.height > metrics.viewport.height, "the why does not fit at \(size)")
    let below = metrics.content.height - metrics.viewport.height
    #expect(lines(app).contains { $0.contains("↓ \(below) more") })
    #expect(!lines(app).contains { $0.contains(" …│") })
    app.send(.focusNextPressed)
    #expect(app.state.focus == .about)
    app.send(.scrollKeyPressed(.bottom))
    #expect(app.state.scroll[.about] == ScrollPosition(y: below))
    // The last words of why it leaks and the actions are on screen now.
    let entry = try #require(app.state.selectedEntry)
    let notes = ScenarioNotesView.lines(entry, width: metrics.viewport.width).map(\.0)
    let shown = lines(app).joined(separator: "\n")
    for line in notes.suffix(metrics.viewport.height) where !line.isEmpty {
      #expect(shown.contains(line), "\(line)")
    }
    app.send(.moveUpPressed)
    #expect(app.state.scroll[.about] == ScrollPosition(y: below - 1))
    // Another scenario's notes start at their top.
    app.send(.focusPreviousPressed, .moveDownPressed)
    #expect(app.state.scroll[.about] == nil)
  }

  /// At 80×24 the About pane broke identifiers mid-word
  /// (`scheduledTimer(withTim` / `eInterval:)`): it wraps at spaces, and breaks
  /// a word only when it is wider than the pane, after a `(`, `,`, `.` or `:`
  /// where one fits, as the code pane does.
  @Test(arguments: Catalogue.all.map(\.id))
  func theAboutPaneBreaksAWordOnlyWhenItIsWiderThanThePaneAndThenAtItsPunctuation(id: String) throws {
    let app = app()
    app.send(.scenarioSelected(id: id))
    let width = try #require(PaneMetrics.of(.about, in: app.state)).viewport.width
    let entry = try #require(app.state.selectedEntry)
    let shown = ScenarioNotesView.lines(entry, width: width).map(\.0)
    let text = [entry.pattern, "Fix: " + entry.fix, entry.whyItLeaks].joined(separator: " ")
    for word in Set(text.split(separator: " ").map(String.init)) {
      guard word.displayWidth > width else {
        #expect(shown.contains { $0.split(separator: " ").contains(Substring(word)) }, "\(word) is whole")
        continue
      }
      // Wider than the pane: it starts a line, and each line it fills ends
      // after the last `(`, `,`, `.` or `:` that fits, where there is one.
      var row = try #require(shown.firstIndex { !$0.isEmpty && word.hasPrefix($0) }, "\(word)")
      var rest = Substring(word)
      while rest.displayWidth > width, row < shown.count {
        let piece = Substring(shown[row])
        let fits = rest.prefix(width)
        let expected = fits.lastIndex { "(,.:".contains($0) }.map { fits[...$0] } ?? fits
        #expect(piece == expected, "\(word) at \(width) columns")
        rest = rest.dropFirst(piece.count)
        row += 1
      }
      #expect(row < shown.count && shown[row].hasPrefix(rest), "\(word): \(rest) ends it")
    }
  }

  @Test func theAboutPaneOfTheRepeatingTimerKeepsItsIdentifiersWholeAt80x24() throws {
    let app = app()
    app.send(.scenarioSelected(id: "repeating-timer"))
    let screen = lines(app)
    #expect(screen.contains { $0.contains("│scheduledTimer(") })
    #expect(screen.contains { $0.contains("│withTimeInterval:)") })
    #expect(!screen.contains { $0.contains("withTim│") || $0.contains("│eInterval") })
  }

  @Test func aClickFocusesTheAboutPaneAndTheWheelScrollsIt() {
    let app = app()
    let layout = AppLayout(size: app.state.screenSize, state: app.state)
    let inside = Point(x: layout.about.minX + 2, y: layout.about.minY + 2)
    app.model.handle(.mouse(MouseEvent(.press, at: inside)))
    #expect(app.state.focus == .about)
    app.model.handle(.mouse(MouseEvent(.wheelDown, at: inside)))
    #expect(app.state.scroll[.about] == ScrollPosition(y: 3))
  }

  /// Defect 3: a long step was clipped and `→` offered a sideways scroll.
  @Test func theDetectorsDetailsWrapToItsWidthSoNothingScrollsSideways() throws {
    let app = app()
    app.send(.scenarioSelected(id: "notification-observer"), .openKeyPressed)
    app.send(.actionKeyPressed(1), .closeKeyPressed)
    app.advance(.seconds(1))
    let metrics = try #require(PaneMetrics.of(.detector, in: app.state))
    #expect(metrics.content.width <= metrics.viewport.width)
    let details = OverlayView.detailContent(app.state, width: 30).lines.map(\.0)
    #expect(details.allSatisfy { $0.displayWidth <= 30 }, "\(details.filter { $0.displayWidth > 30 })")
    #expect(!lines(app).contains { $0.hasSuffix("→ ─┘") || $0.contains(" → ─") })
  }

  /// Defect 5: `g`/`G` scrolled the detector without its cursor.
  @Test func gAndGMoveTheDetectorsCursorAndEExplainsTheLeakUnderIt() {
    let app = app()
    app.send(.scenarioSelected(id: "viper-module"), .openKeyPressed)
    app.send(.actionKeyPressed(1), .closeKeyPressed)
    app.advance(.seconds(1))
    let count = app.state.report.leaks.count
    #expect(count == 3)
    app.send(.focusNextPressed, .focusNextPressed, .focusNextPressed)
    #expect(app.state.focus == .detector)
    app.send(.scrollKeyPressed(.bottom))
    #expect(app.state.selectedLeakIndex == count - 1)
    let last = app.state.report.leaks[count - 1].name
    #expect(lines(app).contains { $0.contains("│\(last) ") })
    app.send(.explainKeyPressed)
    #expect(app.state.explainedLeakIndex == count - 1)
    app.send(.closeKeyPressed, .scrollKeyPressed(.top))
    #expect(app.state.selectedLeakIndex == 0)
  }

  @Test func scrollingTheDetectorKeepsItsCursorOnALeakInView() throws {
    let app = app()
    app.send(.scenarioSelected(id: "viper-module"), .openKeyPressed)
    app.send(.actionKeyPressed(1), .closeKeyPressed)
    app.advance(.seconds(1))
    app.send(.focusNextPressed, .focusNextPressed, .focusNextPressed)
    app.send(.scrollKeyPressed(.pageDown), .scrollKeyPressed(.pageDown))
    let metrics = try #require(PaneMetrics.of(.detector, in: app.state))
    let rows = OverlayView.detailContent(app.state, width: metrics.viewport.width).leakRows
    let shown = metrics.position.y..<(metrics.position.y + metrics.viewport.height)
    #expect(metrics.position.y > 0)
    #expect(rows[app.state.selectedLeakIndex].overlaps(shown))
  }

  /// Defect 5: with another scenario selected, `e` in the detector said "has not run yet".
  @Test func eInTheDetectorExplainsItsLeakWhateverTheCatalogueSelects() {
    let app = app()
    app.send(.scenarioSelected(id: "alert-action-capture"), .openKeyPressed)
    app.send(.actionKeyPressed(1), .actionKeyPressed(2), .closeKeyPressed)
    app.advance(.seconds(1))
    app.send(.moveDownPressed)
    #expect(app.state.isSelectionAnotherScenario)
    app.send(.focusNextPressed, .focusNextPressed, .focusNextPressed, .moveDownPressed, .explainKeyPressed)
    #expect(lines(app).contains { $0.contains("2 of 2: DraftsScreen#1") })
    #expect(!lines(app).contains { $0.contains("has not run yet") })
  }

  /// Defect 7: `StrongOutputProfileInteracto` / `r: …` at 80 columns.
  @Test(arguments: Catalogue.all.map(\.id))
  func theCodePaneNeverBreaksAnIdentifierThatFitsOnALine(id: String) throws {
    let scenario = try #require(Catalogue.scenario(id: id))
    for width in 26...40 {
      for line in scenario.code.lines {
        let parts = TextWrapping.code(line.text, width: width)
        let identifiers = line.text.split { !($0.isLetter || $0.isNumber || $0 == "_") }
        for identifier in identifiers where identifier.count <= width - 8 {
          #expect(parts.contains { $0.contains(identifier) }, "\(id) at \(width): \(identifier) in \(parts)")
        }
      }
    }
  }
}
