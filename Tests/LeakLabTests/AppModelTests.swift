import LeakDetector
import Scenarios
import Testing
import TextGrid

@testable import LeakLab

/// The model driven step by step on a manual clock: after each step, the
/// state that matters and the detector's label.
@MainActor
@Suite struct AppModelTests {
  let app = TestApp()

  @Test func theFirstStateShowsTheCatalogueRootAndACleanLabel() {
    #expect(app.state.phone?.title == "LeakLab")
    #expect(app.state.phone?.navigationDepth == 1)
    #expect(app.state.report.summaryLabel == "No issues detected")
    #expect(app.label == "No issues detected")
    #expect(app.state.log.isEmpty)
    #expect(!app.model.tick())
  }

  @Test func aStrongClosureCaptureLeaksItsScreenOnceTheGraceDelayIsOver() {
    app.send(.openKeyPressed)
    #expect(app.state.openScenario == OpenScenario(id: "sample-closure", mode: .strong))
    #expect(app.state.phone?.title == "Feed")
    #expect(app.state.phone?.backTitle == "LeakLab")
    #expect(app.state.phone?.buttons == ["Load"])
    #expect(app.label == "No issues detected")

    app.send(.actionKeyPressed(1))
    #expect(app.state.log.last == LogEntry(time: .zero, kind: .action, text: "Load"))

    app.advance(.seconds(2))
    app.send(.closeKeyPressed)
    #expect(app.state.openScenario == nil)
    #expect(app.state.phone?.title == "LeakLab")
    #expect(app.state.log.suffix(2).map(\.kind) == [.closed, .expected])
    #expect(app.state.log.last?.text.hasPrefix("SampleFeedScreen") == true)
    #expect(app.label == "No issues detected")

    #expect(!app.advance(.milliseconds(900)))
    #expect(app.state.report.summaryLabel == "No issues detected")
    #expect(app.advance(.milliseconds(100)))
    #expect(app.state.report.summaryLabel == "Leaked: SampleFeedScreen#1")
    #expect(app.label == "Leaked: SampleFeedScreen#1")
    #expect(
      app.state.log.suffix(2)
        == [
          LogEntry(time: .seconds(3), kind: .detected, text: "SampleFeedScreen#1 alive 1.0 s after close"),
          LogEntry(time: .seconds(3), kind: .checked, text: "SampleFeedScreen (+3 more): 4 of 4 still alive"),
        ])
    let path = app.state.report.leaks.first?.retainPath ?? ""
    #expect(path.hasPrefix("retain cycle: SampleFeedScreen#1 → onLoad"), "\(path)")
  }

  @Test func theWeakFormIsCleanAndEachOpenStartsAFreshRun() {
    app.send(.openKeyPressed, .actionKeyPressed(1), .closeKeyPressed)
    app.advance(.seconds(1))
    #expect(app.label == "Leaked: SampleFeedScreen#1")

    app.send(.captureToggled)
    #expect(app.state.catalogue[0].mode == .weak)
    #expect(app.state.notice == "Closure capture: weak (fixed)")
    app.send(.openKeyPressed)
    #expect(app.model.runCount == 2)
    #expect(app.state.openScenario?.mode == .weak)
    #expect(app.label == "No issues detected")
    app.send(.actionKeyPressed(1), .closeKeyPressed)
    app.advance(.seconds(5))
    #expect(app.state.report.summaryLabel == "No issues detected")
    #expect(app.state.report.leaks.isEmpty)
  }

  @Test func aWeakRunSaysWhatWasCheckedOnceTheGraceDelayIsOver() {
    app.send(.captureToggled, .openKeyPressed, .actionKeyPressed(1))
    #expect(OverlayView.cleanStatus(app.state) == "Close the screen (Esc) to start the leak check.")
    app.send(.closeKeyPressed)
    #expect(app.state.lastCheck == nil)
    #expect(OverlayView.cleanStatus(app.state).hasPrefix("Checking 4 objects"))
    app.advance(.seconds(1))
    #expect(app.state.lastCheck == RunCheck(name: "SampleFeedScreen (+3 more)", objects: 4, alive: 0))
    #expect(
      app.state.log.last
        == LogEntry(time: .seconds(1), kind: .checked, text: "SampleFeedScreen (+3 more): all deallocated"))
    #expect(OverlayView.cleanStatus(app.state) == "✓ Checked SampleFeedScreen (+3 more): all deallocated.")
    // The next run starts unchecked.
    app.send(.openKeyPressed)
    #expect(app.state.lastCheck == nil)
  }

  @Test func anAlertTakesTheNumberKeysAndLeaksWhenItsActionCapturesIt() {
    app.send(.scenarioSelected(id: "sample-alert"), .openKeyPressed, .actionKeyPressed(1))
    #expect(app.state.phone?.alert?.title == "Delete post?")
    #expect(app.state.phone?.alert?.actions.map(\.title) == ["Cancel", "Delete"])
    #expect(app.state.keyContext == .alert)

    app.send(.actionKeyPressed(2))
    #expect(app.state.phone?.alert == nil)
    #expect(app.state.log.suffix(2).map(\.kind) == [.action, .expected])
    #expect(app.state.log.suffix(2).first?.text == "alert: Delete")
    app.advance(.seconds(1))
    #expect(app.label == "Leaked: AlertController#1")
    #expect(app.state.openScenario?.id == "sample-alert")
    #expect(app.state.phone?.title == "Posts")
  }

  @Test func escCancelsTheAlertFirstThenClosesTheScreen() {
    app.send(.scenarioSelected(id: "sample-alert"), .openKeyPressed, .actionKeyPressed(1))
    app.send(.closeKeyPressed)
    #expect(app.state.phone?.alert == nil)
    #expect(app.state.openScenario?.id == "sample-alert")
    app.send(.closeKeyPressed)
    #expect(app.state.openScenario == nil)
    app.advance(.seconds(1))
    #expect(app.label == "Leaked: AlertController#1")
  }

  @Test func aDelayedDispatchLeakIsDetectedThenResolvesAfterTenSeconds() {
    app.send(.scenarioSelected(id: "sample-delayed"), .openKeyPressed, .actionKeyPressed(1), .closeKeyPressed)
    app.advance(.seconds(1))
    #expect(app.label == "Leaked: SampleSyncScreen#1")
    #expect(app.state.report.leaks.first?.status == .open)

    app.advance(.seconds(4))
    #expect(app.state.report.leaks.first?.age(at: app.state.now) == .seconds(5))

    app.advance(.seconds(5))
    #expect(app.state.report.summaryLabel == "No issues detected")
    #expect(app.state.report.leaks.first?.status == .resolved(after: .seconds(10)))
    #expect(
      app.state.log.last
        == LogEntry(time: .seconds(10), kind: .resolved, text: "SampleSyncScreen#1 deallocated after 10.0 s"))
  }

  @Test func theExplainViewWalksTheLeaks() {
    app.send(.scenarioSelected(id: "sample-alert"), .openKeyPressed)
    app.send(.actionKeyPressed(1), .actionKeyPressed(2), .actionKeyPressed(1), .actionKeyPressed(2))
    app.advance(.seconds(1))
    #expect(app.label == "Leaked: AlertController#1, AlertController#2")
    app.send(.explainKeyPressed)
    #expect(app.state.explainedLeakIndex == 0)
    app.send(.focusNextPressed)
    #expect(app.state.explainedLeakIndex == 1)
    app.send(.focusNextPressed)
    #expect(app.state.explainedLeakIndex == 0)
    app.send(.focusPreviousPressed)
    #expect(app.state.explainedLeakIndex == 1)
    app.send(.explainKeyPressed)
    #expect(app.state.explainedLeakIndex == nil)
  }

  @Test func keysAreLookedUpInTheKeyMap() {
    #expect(app.model.handle(.character("j")) == .moveDownPressed)
    #expect(app.state.selectedIndex == 1)
    #expect(app.model.handle(.character(" ")) == .actionKeyPressed(1))
    #expect(app.model.handle(.character("x")) == nil)
    #expect(app.model.handle(.control("c")) == .quitKeyPressed)
    #expect(app.state.isQuitRequested)
  }

  @Test func tickRedrawsOnlyWhenSomethingVisibleChanged() {
    #expect(!app.advance(.seconds(5)))
    app.send(.openKeyPressed, .actionKeyPressed(1), .closeKeyPressed)
    #expect(!app.advance(.milliseconds(500)))
    #expect(app.advance(.milliseconds(500)))  // detected
    #expect(!app.advance(.milliseconds(200)))  // same second of age
    #expect(app.advance(.seconds(1)))  // the age shown moved on
  }
}
