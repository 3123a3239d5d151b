import LeakClock
import LeakDetector
import ScreenKit
import Testing

@testable import Scenarios

/// The path the app model drives: open, action, close, read the label.
@MainActor
@Suite struct HarnessTests {
  @Test func openPushesTheScreenAndCloseGoesBackToTheCatalogue() {
    let rig = Rig()
    rig.harness.open(Catalogue.delayedDispatch, mode: .weak)
    #expect(rig.harness.window.snapshot()?.title == "Sync")
    #expect(rig.harness.window.snapshot()?.navigationDepth == 2)
    #expect(rig.harness.window.tapButton(titled: "Sync in 10 s"))
    rig.harness.close()
    #expect(rig.harness.window.snapshot()?.title == "LeakLab")
    #expect(rig.harness.openScreen == nil)
    #expect(rig.harness.openScenario == nil)
  }

  @Test func theLabelAfterEachStepTellsTheStory() {
    let rig = Rig()
    rig.harness.open(Catalogue.delayedDispatch, mode: .strong)
    #expect(rig.harness.runAction(at: 0))
    rig.harness.close()
    #expect(rig.label == "No issues detected")
    rig.scheduler.advance(by: .seconds(1))
    #expect(rig.label == "Leaked: SyncScreen#1")
    rig.scheduler.advance(by: .seconds(9))
    #expect(rig.label == "No issues detected")
    #expect(rig.harness.detector.history.map(\.kind) == [.detected, .resolved])
  }

  @Test func closingWithAnAlertUpCancelsItThenPops() {
    let rig = Rig()
    rig.harness.open(Catalogue.alertActionCapture, mode: .weak)
    rig.harness.runAction(at: 0)
    #expect(rig.harness.window.topAlert != nil)
    rig.harness.close()
    #expect(rig.harness.window.topAlert == nil)
    #expect(rig.harness.navigation.screens.count == 1)
    rig.scheduler.advance(by: .seconds(1))
    #expect(rig.label == "No issues detected")
  }

  @Test func anActionIndexOutOfRangeDoesNothing() {
    let rig = Rig()
    #expect(!rig.harness.runAction(at: 0), "nothing is open")
    rig.harness.open(Catalogue.lazyClosureProperty, mode: .weak)
    #expect(!rig.harness.runAction(at: 5))
    rig.harness.close()
  }

  @Test func ownedPartsAreExpectedWithTheScreen() {
    let rig = Rig()
    rig.harness.open(Catalogue.closureCapture, mode: .strong)
    rig.harness.runAction(at: 0)
    rig.harness.close()
    rig.scheduler.advance(by: .milliseconds(999))
    #expect(rig.harness.detector.report.pendingExpectations > 2)
    rig.scheduler.advance(by: .milliseconds(1))
    #expect(rig.label == "Leaked: LoadFeedUseCase#1, FeedService#1")
  }

  @Test func goingBackReportsOnceWhetherTheScenarioClosed() {
    let rig = Rig()
    #expect(rig.harness.goBack() == .nothingOpen)
    rig.harness.open(Catalogue.alertActionCapture, mode: .weak)
    rig.harness.runAction(at: 0)
    #expect(rig.harness.goBack() == .stillOpen, "the alert is cancelled first")
    #expect(rig.harness.openScenario?.id == "alert-action-capture")
    #expect(rig.harness.goBack() == .closed)
    #expect(rig.harness.openScenario == nil)
    #expect(rig.harness.openScreen == nil)
    #expect(rig.harness.goBack() == .nothingOpen)
  }

  @Test func tappingAnAlertActionByIndexNeedsAnAlertWithThatAction() {
    let rig = Rig()
    rig.harness.open(Catalogue.alertActionCapture, mode: .strong)
    #expect(!rig.harness.tapAlertAction(at: 0), "no alert is shown")
    rig.harness.runAction(at: 0)
    let titles = rig.harness.window.topAlert?.actions.map(\.title) ?? []
    #expect(titles.count == 2)
    #expect(!rig.harness.tapAlertAction(at: titles.count))
    #expect(rig.harness.tapAlertAction(at: 1))
    #expect(rig.harness.window.topAlert == nil)
  }
}
