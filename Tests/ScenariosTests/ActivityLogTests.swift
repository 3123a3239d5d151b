import LeakClock
import ScreenKit
import Testing

@testable import Scenarios

/// What the app's log hears from work that goes on after a screen closed.
@MainActor
@Suite struct ActivityLogTests {
  @Test func nothingIsLoggedWhileTheScreenIsOpenAndALeakedTimerIsThinnedAfterTheClose() {
    let rig = Rig()
    weak let screen = rig.harness.open(Catalogue.repeatingTimer, mode: .strong) as? StopwatchScreen
    rig.harness.runAction(at: 0)
    let timer = screen?.timer
    rig.scheduler.advance(by: .seconds(3))
    #expect(rig.harness.environment.activity.isEmpty)
    rig.harness.close()
    rig.scheduler.advance(by: .seconds(12))
    #expect(
      rig.harness.environment.activity.drain().map(\.text) == [
        "StopwatchScreen#1, closed 1.0 s ago, ticked",
        "StopwatchScreen#1, closed 2.0 s ago, ticked (2nd time)",
        "StopwatchScreen#1, closed 3.0 s ago, ticked (3rd time)",
        "StopwatchScreen#1, closed 5.0 s ago, ticked (5th time)",
        "StopwatchScreen#1, closed 10.0 s ago, ticked (10th time)",
      ])
    #expect(rig.label == "Leaked: StopwatchScreen#1", "the log names it as the label does")
    timer?.invalidate()
  }

  @Test func countsShownAreOneTwoThreeThenOneTwoFiveInEachDecade() {
    let shown = (1...120).filter(ActivityLog.isShown)
    #expect(shown == [1, 2, 3, 5, 10, 20, 50, 100])
    #expect(
      [1, 2, 3, 4, 11, 12, 13, 21, 22, 23, 101].map(ActivityLog.ordinal) == [
        "1st", "2nd", "3rd", "4th", "11th", "12th", "13th", "21st", "22nd", "23rd", "101st",
      ])
  }
}
