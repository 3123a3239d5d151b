import Scenarios
import StepScripts
import Testing
import TextGrid

@testable import LeakLab

/// What the explain view (`e`) and the overlay say about which run they show
/// (issue 10, defect 5).
@MainActor
@Suite struct ExplainViewTests {
  let app = TestApp()
  let size = Size(width: 100, height: 30)

  func screen() -> String {
    render(app.state, size: size).lines.joined(separator: "\n")
  }

  @Test func withAnotherScenarioSelectedItSaysThatScenarioHasNotRun() {
    app.send(.openKeyPressed, .actionKeyPressed(1), .closeKeyPressed)
    app.advance(.seconds(1))
    #expect(app.label == "Leaked: SampleFeedScreen#1")
    app.send(.moveDownPressed, .explainKeyPressed)
    let text = screen()
    #expect(text.contains("Alert action capture has not run yet."))
    #expect(text.contains("The overlay still shows the last run: Closure capture."))
    #expect(!text.contains("1 of 1: SampleFeedScreen#1"))
    // Back on the scenario that ran, the leak is explained.
    app.send(.explainKeyPressed, .moveUpPressed, .explainKeyPressed)
    #expect(screen().contains("1 of 1: SampleFeedScreen#1"))
  }

  @Test func theOverlayTitleNamesTheRunItDescribes() {
    #expect(screen().contains("┌─ Detector ─"))
    app.send(.openKeyPressed)
    #expect(screen().contains("┌─ Detector · Closure capture (strong) ─"))
    #expect(ScreenLabelReader.label(in: render(app.state, size: size).lines) == "No issues detected")
  }

  @Test func otherLeakIsOfferedOnlyWhenThereIsAnotherLeak() {
    app.send(.explainKeyPressed)
    #expect(screen().contains("Nothing has run yet."))
    #expect(!screen().contains("Tab other leak"))
    app.send(.closeKeyPressed, .openKeyPressed, .actionKeyPressed(1), .closeKeyPressed)
    app.advance(.seconds(1))
    app.send(.explainKeyPressed)
    #expect(screen().contains("1 of 1: SampleFeedScreen#1"))
    #expect(!screen().contains("Tab other leak"))
    app.send(.closeKeyPressed, .scenarioSelected(id: "sample-alert"), .openKeyPressed)
    app.send(.actionKeyPressed(1), .actionKeyPressed(2), .actionKeyPressed(1), .actionKeyPressed(2))
    app.advance(.seconds(1))
    app.send(.explainKeyPressed)
    #expect(screen().contains("Tab other leak"))
  }
}

/// Number keys and the buttons they tap (issue 10, defect 5).
@MainActor
@Suite struct ActionNumberTests {
  @Test func theNestedClosureRetryButtonHasANumberAndItsKeyTapsIt() {
    let app = TestApp(catalogue: [Catalogue.nestedClosure])
    app.send(.openKeyPressed, .actionKeyPressed(1))
    let lines = render(app.state, size: Size(width: 100, height: 30)).lines
    #expect(lines.contains { $0.contains("[1 Load photo]") })
    #expect(lines.contains { $0.contains("[2 Retry]") })
    app.send(.actionKeyPressed(2))
    #expect(app.state.log.last?.text == "Retry")
    #expect(app.state.notice == nil)
  }

  @Test func aNumberWithoutAnActionSaysSo() {
    let app = TestApp()
    app.send(.openKeyPressed, .actionKeyPressed(2))
    #expect(app.state.notice == "2 does nothing here: this screen has one action (1)")
    app.send(.closeKeyPressed, .scenarioSelected(id: "sample-alert"), .openKeyPressed, .actionKeyPressed(1))
    app.send(.actionKeyPressed(3))
    #expect(app.state.notice == "3 does nothing here: the alert's actions are 1–2")
    #expect(app.state.phone?.alert != nil)
  }

  /// Issue 26, defect 2: below ~110 columns the "why" paragraph was left out.
  @Test(arguments: [Size(width: 80, height: 24), Size(width: 99, height: 30)])
  func theNarrowExplainViewSaysWhyUnderTheDrawing(size: Size) throws {
    let app = TestApp(catalogue: Catalogue.all)
    app.send(
      .scenarioSelected(id: "strong-delegate"), .openKeyPressed, .actionKeyPressed(1), .closeKeyPressed)
    app.advance(.seconds(1))
    app.model.resize(to: size)
    app.send(.explainKeyPressed)
    let frame = ExplainView.frame(app.state, in: AppLayout(size: size, state: app.state).body)
    let content = ExplainView.content(app.state, width: frame.viewport.width, room: frame.viewport.height)
    let text = content.lines.joined(separator: " ").split(separator: " ").joined(separator: " ")
    let why = try #require(app.state.lastRunEntry?.whyItLeaks)
    #expect(text.contains(why.split(separator: " ").joined(separator: " ")))
    #expect(text.contains("Fix: "))
  }
}
