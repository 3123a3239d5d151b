import LeakClock
import ScreenKit
import Testing

import func LeakLabTestSupport.waitForDeallocation

@testable import Scenarios

/// `delayed-dispatch` in the three published styles: a temporary leak that
/// resolves when the block runs, ten seconds after the tap.
@MainActor
@Suite struct DelayedDispatchTests {
  @Test(arguments: ScenarioMode.allCases)
  func moduleTeardownFindsTheScreenAliveUntilTheBlockRuns(mode: ScenarioMode) {
    let scheduler = ManualScheduler()
    let parts = WeakParts()
    do {
      let screen = SyncScreen(mode: mode, mainQueue: MainQueue(scheduler: scheduler))
      parts.keep("SyncScreen", screen)
      #expect(tap("Sync in 10 s", in: screen))
      #expect(screen.statusLabel.text == "Syncing…")
    }
    #expect(parts.alive == (mode == .strong ? ["SyncScreen"] : []))
    scheduler.advance(by: .seconds(10))
    #expect(parts.alive == [])
  }

  @Test(arguments: ScenarioMode.allCases)
  func assertDeallocationTimesOutAtTwoSecondsButNotAtFifteen(mode: ScenarioMode) {
    let rig = Rig()
    weak let screen = rig.harness.open(Catalogue.delayedDispatch, mode: mode)
    rig.harness.runAction(at: 0)
    rig.harness.close()
    let failure = waitForDeallocation(of: "SyncScreen", on: rig.scheduler, timeout: .seconds(2)) {
      screen == nil
    }
    switch mode {
    case .strong:
      #expect(failure == "SyncScreen was not deallocated within 2.0 s")
      #expect(rig.label == "Leaked: SyncScreen#1")
      #expect(
        waitForDeallocation(of: "SyncScreen", on: rig.scheduler, timeout: .seconds(13)) { screen == nil }
          == nil)
      rig.scheduler.advance(by: .milliseconds(100))
      #expect(rig.label == "No issues detected")
      #expect(rig.harness.detector.report.leaks.map(\.status) == [.resolved(after: .seconds(10))])
    case .weak:
      #expect(failure == nil)
      #expect(rig.label == "No issues detected")
    }
  }

  final class Fixture {
    weak var screen: SyncScreen?
  }

  @Test(arguments: ScenarioMode.allCases)
  func fixtureCheckNamesTheScreenBeforeTheBlockRuns(mode: ScenarioMode) {
    let rig = Rig()
    let fixture = Fixture()
    fixture.screen = rig.harness.open(Catalogue.delayedDispatch, mode: mode) as? SyncScreen
    rig.harness.runAction(at: 0)
    rig.harness.close()
    rig.scheduler.advance(by: .seconds(1))
    #expect(nonNilProperties(of: fixture) == (mode == .strong ? ["screen"] : []))
    rig.scheduler.advance(by: .seconds(9))
    #expect(nonNilProperties(of: fixture) == [])
  }
}
