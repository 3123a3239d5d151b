import StepScripts
import Testing
import TextGrid

@testable import LeakLab

/// The overlay's rendering contract: a reader of the screen gets the exact summary label back.
@MainActor
@Suite struct OverlayContractTests {
  @Test(arguments: RenderSnapshotTests.sizes)
  func theLabelReadsBackFromTheScreenWhenClean(size: Size) {
    let app = TestApp()
    let lines = render(app.state, size: size).lines
    #expect(ScreenLabelReader.label(in: lines) == "No issues detected")
    #expect(lines.contains { $0.contains("┌─ Detector ─") })
  }

  @Test(arguments: RenderSnapshotTests.sizes)
  func aLongLabelWrapsAtCommasAndReadsBackExactly(size: Size) {
    let app = TestApp()
    app.send(.scenarioSelected(id: "sample-alert"), .openKeyPressed)
    for _ in 0..<8 { app.send(.actionKeyPressed(1), .actionKeyPressed(2)) }
    app.advance(.seconds(1))
    let label = app.state.report.summaryLabel
    #expect(label.hasPrefix("Leaked: AlertController#1, AlertController#2"))
    #expect(label.hasSuffix("AlertController#8"))
    let lines = render(app.state, size: size).lines
    #expect(ScreenLabelReader.label(in: lines) == label)
  }

  @Test func theLabelIsWrappedOnlyAfterCommasWithoutIndentation() {
    let lines = TextWrapping.list(
      "Leaked: AlertScreen#1, AlertController#1, ImageCache (3/2)", separator: ", ", width: 24)
    #expect(lines == ["Leaked: AlertScreen#1,", "AlertController#1,", "ImageCache (3/2)"])
  }

  @Test func noBoxIsDrawnWhenHiddenOrOnlyWithIssuesAndClean() {
    let app = TestApp()
    app.send(.overlayKeyPressed)
    #expect(ScreenLabelReader.label(in: render(app.state, size: Size(width: 80, height: 24)).lines) == nil)
    app.send(.openKeyPressed, .actionKeyPressed(1), .closeKeyPressed)
    app.advance(.seconds(1))
    let lines = render(app.state, size: Size(width: 80, height: 24)).lines
    #expect(ScreenLabelReader.label(in: lines) == "Leaked: SampleFeedScreen#1")
    app.send(.overlayKeyPressed)
    #expect(ScreenLabelReader.label(in: render(app.state, size: Size(width: 80, height: 24)).lines) == nil)
  }

  @Test func resolvedLeaksAreDimmedAndLeaveTheLabel() throws {
    let app = TestApp()
    app.send(.scenarioSelected(id: "sample-delayed"), .openKeyPressed, .actionKeyPressed(1), .closeKeyPressed)
    app.advance(.seconds(10))
    let grid = render(app.state, size: Size(width: 80, height: 24))
    #expect(ScreenLabelReader.label(in: grid.lines) == "No issues detected")
    let row = grid.lines.firstIndex { $0.contains("SampleSyncScreen#1  resolved after 10.0 s") }
    let line = grid.styledLines[try #require(row)]
    let start = try #require(line.range(of: "SampleSyncScreen#1"))
    let run = try #require(line[..<start.lowerBound].range(of: "[", options: .backwards))
    #expect(line[run.lowerBound...].hasPrefix("[dim]"), "\(line)")
  }
}
