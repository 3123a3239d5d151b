import Scenarios
import StepScripts
import Testing
import TextGrid

@testable import LeakLab

/// Readable at any size: the list as wide as its titles when there is room,
/// code and paths wrapped instead of cut, the essentials on screen at 80×24.
@MainActor
@Suite struct LayoutTests {
  let app = TestApp(catalogue: Catalogue.all)

  @Test(arguments: [120, 160, 200])
  func fromAbout104ColumnsNoScenarioNameIsCut(width: Int) {
    let lines = render(app.state, size: Size(width: width, height: 40)).lines
    for scenario in Catalogue.all {
      #expect(lines.contains { $0.contains(scenario.title) }, "\(scenario.title) at \(width)")
    }
  }

  @Test func at80x24TheEssentialsAreOnScreen() {
    app.send(.scenarioSelected(id: "alert-action-capture"), .openKeyPressed)
    app.send(.actionKeyPressed(1), .actionKeyPressed(2), .closeKeyPressed)
    app.advance(.seconds(1))
    let lines = render(app.state, size: Size(width: 80, height: 24)).lines
    #expect(ScreenLabelReader.label(in: lines) == "Leaked: AlertController#1, DraftsScreen#1")
    #expect(lines.contains { $0.contains("│● ") || $0.contains("│▶ ") })
    #expect(lines.contains { $0.contains("↳ retain cycle: AlertController#1") })
    #expect(lines.contains { $0.contains("more ─┘") })
    #expect(lines.last?.contains("? help") == true)
    #expect(lines.allSatisfy { $0.displayWidth <= 80 })
  }

  @Test(arguments: [80, 100, 120, 200])
  func theDetectorsRetainPathIsNeverCutWithAnEllipsis(width: Int) {
    app.send(.scenarioSelected(id: "notification-observer"), .openKeyPressed)
    app.send(.actionKeyPressed(1), .closeKeyPressed)
    app.advance(.seconds(1))
    let details = OverlayView.detailContent(app.state, width: width - 30)
    #expect(!details.lines.contains { $0.0.hasSuffix("…") })
    let path = app.state.report.leaks.first?.retainPath ?? ""
    #expect(path.count > width, "the path is longer than the pane")
    let shown = details.lines.map(\.0).joined().filter { !$0.isWhitespace && $0 != "↳" }
    #expect(shown.contains(path.filter { !$0.isWhitespace }))
  }
}

/// Code lines wrap at spaces, then after punctuation, with an indent under their line.
@Suite struct CodeWrapTests {
  @Test func aLineThatFitsStaysWhole() {
    #expect(TextWrapping.code("  let x = 1", width: 20) == ["  let x = 1"])
  }

  @Test func aLongLineWrapsAtSpacesUnderItsIndentPlusTwo() {
    let lines = TextWrapping.code(
      "    mainQueue.asyncAfter(.seconds(10)) { self.statusLabel.text = \"Synced\" }", width: 30)
    #expect(lines.allSatisfy { $0.displayWidth <= 30 })
    #expect(lines.first?.hasPrefix("    mainQueue") == true)
    #expect(lines.dropFirst().allSatisfy { $0.hasPrefix("      ") })
    // Nothing is lost: the same characters, only the breaks differ.
    let code = "mainQueue.asyncAfter(.seconds(10)) { self.statusLabel.text = \"Synced\" }"
    #expect(lines.joined().filter { !$0.isWhitespace } == code.filter { !$0.isWhitespace })
  }

  @Test func aTokenLongerThanALineBreaksAfterPunctuation() {
    let lines = TextWrapping.code("service.run(completion: handleResponse)", width: 17)
    #expect(lines == ["service.run(", "  completion:", "  handleResponse)"])
  }
}
