import LeakClock
import ScreenKit
import Testing

import func LeakLabTestSupport.waitForDeallocation

@testable import Scenarios

/// `repeating-timer` in the three published styles.
@MainActor
@Suite struct RepeatingTimerTests {
  @Test(arguments: ScenarioMode.allCases)
  func moduleTeardownFindsTheScreenAliveAndTicking(mode: ScenarioMode) {
    let scheduler = ManualScheduler()
    let parts = WeakParts()
    weak var timer: RepeatingWork?
    do {
      let screen = StopwatchScreen(mode: mode, mainQueue: MainQueue(scheduler: scheduler))
      parts.keep("StopwatchScreen", screen)
      #expect(tap("Start", in: screen))
      timer = screen.timer
      scheduler.advance(by: .seconds(3))
      #expect(screen.elapsedLabel.text == "3 s")
    }
    scheduler.advance(by: .seconds(60))
    #expect(parts.alive == (mode == .strong ? ["StopwatchScreen"] : []))
    // No window made the screen disappear, so nothing invalidated its timer:
    // the scheduler and its pending repeating work would keep each other.
    timer?.invalidate()
  }

  @Test(arguments: ScenarioMode.allCases)
  func assertDeallocationTimesOutOnTheScreen(mode: ScenarioMode) {
    let rig = Rig()
    weak let screen = rig.harness.open(Catalogue.repeatingTimer, mode: mode) as? StopwatchScreen
    rig.harness.runAction(at: 0)
    rig.harness.close()
    let failure = waitForDeallocation(of: "StopwatchScreen", on: rig.scheduler, timeout: .seconds(2)) {
      screen == nil
    }
    switch mode {
    case .strong:
      #expect(failure == "StopwatchScreen was not deallocated within 2.0 s")
      #expect(rig.label == "Leaked: StopwatchScreen#1")
      #expect(screen?.ticks == 2, "it kept ticking after the close")
      screen?.timer?.invalidate()
      #expect(screen == nil)
    case .weak:
      #expect(failure == nil)
      #expect(rig.label == "No issues detected")
    }
  }

  final class Fixture {
    weak var screen: StopwatchScreen?
    weak var timer: RepeatingWork?
  }

  @Test(arguments: ScenarioMode.allCases)
  func fixtureCheckNamesTheScreenAndItsTimer(mode: ScenarioMode) {
    let rig = Rig()
    let fixture = Fixture()
    do {
      let screen = rig.harness.open(Catalogue.repeatingTimer, mode: mode) as! StopwatchScreen
      rig.harness.runAction(at: 0)
      fixture.screen = screen
      fixture.timer = screen.timer
    }
    rig.harness.close()
    rig.scheduler.advance(by: .seconds(5))
    // Fixed: the timer was invalidated on disappear, so the scheduler let go of it too.
    #expect(nonNilProperties(of: fixture) == (mode == .strong ? ["screen", "timer"] : []))
    fixture.timer?.invalidate()
  }
}
