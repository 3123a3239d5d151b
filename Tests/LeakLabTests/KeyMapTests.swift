import Foundation
import Testing
import TextGrid

@testable import LeakLab

/// The key map is the single source of the keys, the status bar and the help overlay.
@MainActor
@Suite struct KeyMapTests {
  let keyMap = KeyMap.standard

  @Test func everyBindingHasHelpTextThatNamesEachOfItsKeys() {
    for binding in keyMap.bindings {
      #expect(!binding.help.isEmpty, "\(binding.keyLabel) has no help")
      #expect(binding.keys.count == binding.actions.count)
      let named = binding.keys.allSatisfy { binding.keyLabel.contains($0.name) }
      #expect(named || binding.keyLabel.contains("–"), "\(binding.keyLabel) does not name its keys")
    }
  }

  @Test func everyKeyTheIssueListsIsBound() {
    let expected: [(Key, AppAction)] = [
      (.up, .moveUpPressed), (.down, .moveDownPressed),
      (.character("k"), .moveUpPressed), (.character("j"), .moveDownPressed),
      (.enter, .openKeyPressed),
      (.escape, .closeKeyPressed), (.backspace, .closeKeyPressed),
      (.tab, .focusNextPressed), (.backTab, .focusPreviousPressed),
      (.pageUp, .scrollKeyPressed(.pageUp)), (.pageDown, .scrollKeyPressed(.pageDown)),
      (.home, .scrollKeyPressed(.top)), (.end, .scrollKeyPressed(.bottom)),
      (.character("g"), .scrollKeyPressed(.top)), (.character("G"), .scrollKeyPressed(.bottom)),
      (.left, .scrollKeyPressed(.left)), (.right, .scrollKeyPressed(.right)),
      (.character("h"), .scrollKeyPressed(.left)), (.character("l"), .scrollKeyPressed(.right)),
      (.character("/"), .filterKeyPressed), (.character("y"), .copyKeyPressed),
      (.character("r"), .reportKeyPressed),
      (.character("w"), .captureToggled),
      (.character(" "), .actionKeyPressed(1)),
      (.character("o"), .overlayKeyPressed), (.character("?"), .helpKeyPressed),
      (.character("e"), .explainKeyPressed),
      (.character("q"), .quitKeyPressed), (.control("c"), .quitKeyPressed),
    ]
    for (key, action) in expected {
      #expect(keyMap.action(for: key) == action, "\(key.name)")
    }
    for number in 1...9 {
      #expect(keyMap.action(for: .character(Character("\(number)"))) == .actionKeyPressed(number))
    }
  }

  @Test func mouseEventsAreBoundByKindAndKeepTheirCell() {
    let click = MouseEvent(.press, at: Point(x: 7, y: 3))
    let wheel = MouseEvent(.wheelDown, at: Point(x: 40, y: 20))
    #expect(keyMap.action(for: .mouse(click)) == .mouseUsed(click))
    #expect(keyMap.action(for: .mouse(wheel)) == .mouseUsed(wheel))
    #expect(keyMap.action(for: .mouse(MouseEvent(.release, at: .zero))) == nil)
  }

  @Test(arguments: KeyContext.allCases)
  func theStatusBarShowsTheHintsOfItsContextFromTheTable(context: KeyContext) {
    var state = AppState(catalogue: [])
    state.keyMap = keyMap
    let hints = keyMap.statusHints(in: context)
    #expect(!hints.isEmpty)
    let (row, focus) = StatusBarText.of(state: state, context: context, width: 120)
    let expected = hints.map { "\($0.keys) \($0.hint)" }.joined(separator: "  ")
    #expect(row == focus + "  " + expected)
  }

  @Test func theStatusBarFitsEveryContextAt80Columns() {
    for context in KeyContext.allCases {
      let hints = keyMap.statusHints(in: context)
      let width = hints.map { $0.keys.displayWidth + 1 + $0.hint.displayWidth }.reduce(0, +) + 2 * hints.count
      // The focus label goes first: " Scenarios " and a space.
      #expect(width + 12 <= 80, "\(context): \(width) columns")
    }
  }

  @Test func theHelpOverlayListsEveryBindingAndItsHelp() {
    var state = AppState(catalogue: SampleScenarios.all.map { CatalogueEntry($0) })
    state.isHelpVisible = true
    let screen = render(state, size: Size(width: 120, height: 40)).lines.joined(separator: "\n")
    for binding in keyMap.bindings {
      #expect(screen.contains(binding.keyLabel), "\(binding.keyLabel)")
      let firstWords = binding.help.split(separator: " ").prefix(3).joined(separator: " ")
      #expect(screen.contains(firstWords), "\(binding.help)")
    }
  }

  @Test func aKeyBoundTwiceIsRejectedByTheTableItself() {
    // `KeyMap.init` traps on a duplicate; the standard table's keys are all distinct.
    let keys = keyMap.bindings.flatMap(\.keys)
    #expect(Set(keys).count == keys.count)
  }

  /// Issue 26, defect 7: `? help  q quit` while typing the filter, where both are text.
  @Test func whileTheFilterIsTypedTheBarOffersNoKeyThatWouldBeTyped() {
    let shown = keyMap.bindings.filter { $0.hint != nil && $0.shownIn.contains(.filtering) }
    #expect(!shown.isEmpty)
    for binding in shown {
      let typed = binding.keys.filter { if case .character = $0 { true } else { false } }.map(\.name)
      #expect(
        !typed.contains(binding.statusLabel), "\(binding.statusLabel) is offered but types into the filter")
    }
  }

  /// Issue 26, defect 7: notices were cut at 80 columns.
  @Test func aLongNoticeWrapsInAStatusBarThatGrowsAndIsNeverCut() throws {
    var state = AppState(catalogue: SampleScenarios.all.map { CatalogueEntry($0) })
    state.openScenario = OpenScenario(id: state.catalogue[0].id, mode: .strong)
    _ = AppReducer.reduce(&state, .captureToggled)
    let notice = try #require(state.notice)
    #expect(notice.displayWidth > 60)
    let size = Size(width: 80, height: 24)
    let lines = render(state, size: size).lines
    let bar = StatusBarView.height(state, width: 80)
    #expect(bar == 2)
    let text = lines.suffix(bar).joined(separator: " ").split(separator: " ").joined(separator: " ")
    #expect(text.contains(notice))
    #expect(AppLayout(size: size, state: state).body.height == 24 - bar)
  }

}

/// The status bar's text, as rendered.
@MainActor
enum StatusBarText {
  /// The row, trimmed, and the focus label it starts with.
  static func of(state: AppState, context: KeyContext, width: Int) -> (row: String, focus: String) {
    var state = state
    switch context {
    case .browsing: break
    case .scenario: state.openScenario = OpenScenario(id: "x", mode: .strong)
    case .alert: return (alertRow(state, width: width), "Scenarios")
    case .help: state.isHelpVisible = true
    case .explain: state.explainedLeakIndex = 0
    case .pane: state.focus = .log
    case .filtering: state.isEditingFilter = true
    case .comparison: state.isComparisonVisible = true
    }
    #expect(state.keyContext == context)
    let row = render(state, size: Size(width: width, height: 30)).lines.last!
    return (row.trimmingCharacters(in: .whitespaces), StatusBarView.focusName(state))
  }

  /// An alert needs a window snapshot: take it from a model showing one.
  @MainActor
  private static func alertRow(_ state: AppState, width: Int) -> String {
    let app = TestApp()
    app.send(.scenarioSelected(id: "sample-alert"), .openKeyPressed, .actionKeyPressed(1))
    #expect(app.state.keyContext == .alert)
    return render(app.state, size: Size(width: width, height: 30)).lines.last!.trimmingCharacters(
      in: .whitespaces)
  }

}
