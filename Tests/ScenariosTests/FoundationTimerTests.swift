import Foundation
import LeakClock
import ScreenKit
import Testing

import func LeakLabTestSupport.waitForDeallocation

@testable import Scenarios

/// `foundation-timer`: a real Foundation `Timer` on the main thread's run loop.
@MainActor
@Suite struct FoundationTimerTests {
  @Test(arguments: ScenarioMode.allCases)
  func firingTheRealTimerRefreshesTheScreen(mode: ScenarioMode) throws {
    let rig = Rig()
    let screen = try #require(rig.harness.open(Catalogue.foundationTimer, mode: mode) as? ScoreboardScreen)
    #expect(rig.harness.runAction(at: 0))
    let timer = try #require(screen.timer)
    #expect(timer.isValid && timer.timeInterval == 1)
    let due = timer.fireDate.timeIntervalSinceNow
    #expect(due > 0 && due <= 1, "first due a second after the start")
    timer.fire()
    timer.fire()
    #expect(screen.scoreLabel.text == "Refreshed 2×")
    rig.harness.close()
    timer.invalidate()
  }

  @Test(arguments: ScenarioMode.allCases)
  func theRunLoopKeepsTheScreenOnlyInTheLeakyForm(mode: ScenarioMode) {
    let rig = Rig()
    weak let screen = rig.harness.open(Catalogue.foundationTimer, mode: mode) as? ScoreboardScreen
    rig.harness.runAction(at: 0)
    weak let timer = screen?.timer
    rig.harness.close()
    let failure = waitForDeallocation(of: "ScoreboardScreen", on: rig.scheduler, timeout: .seconds(2)) {
      screen == nil
    }
    switch mode {
    case .strong:
      #expect(failure == "ScoreboardScreen was not deallocated within 2.0 s")
      #expect(rig.label == "Leaked: ScoreboardScreen#1")
      #expect(timer?.isValid == true, "still scheduled on the run loop")
      // Foundation on Linux keeps a Timer and its block even after
      // `invalidate()` (it retains itself into its CF timer's context and
      // never releases it), so invalidating does not free the screen:
      // only `[weak self]` does.
      timer?.invalidate()
      #expect(screen != nil)
    case .weak:
      #expect(failure == nil)
      #expect(rig.label == "No issues detected")
      #expect(timer?.isValid != true, "invalidated on close")
    }
  }
}
