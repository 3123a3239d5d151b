import LeakClock
import LeakDetector
import LeakLabTestSupport
import Testing

@MainActor
@Suite struct EarlyTimerTests {
  @Test func aLeakResolvesWhenASweepAfterTheDetectionRunsEarly() {
    // Detected on time; the resolution checks that follow run early.
    let scheduler = EarlyTimerScheduler(onTimeUntil: .milliseconds(1200))
    let detector = LeakDetector(scheduler: scheduler)
    var screen: Screen? = Screen()
    detector.expectDeallocation(of: screen!)
    // Like the delayed-dispatch scenario: pending work holds the screen for ten seconds.
    scheduler.base.schedule(after: .seconds(10)) { [screen] in _ = screen }
    screen = nil
    scheduler.advance(1)
    #expect(detector.summaryLabel == "Leaked: Screen#1")
    scheduler.advance(10)
    #expect(detector.summaryLabel == "No issues detected")
    #expect(detector.report.leaks.first?.isOpen == false)
  }

  @Test func anObjectExpectedDuringAnEarlySweepIsStillChecked() {
    // The alert-action scenario with human timing: the alert is dismissed,
    // the screen closes 0.3 s later, the alert leaks and keeps the screen.
    // The alert is detected on time; the resolution checks that follow run early.
    let scheduler = EarlyTimerScheduler(onTimeUntil: .milliseconds(1050))
    let detector = LeakDetector(scheduler: scheduler)
    let alert = View()
    let screen = Screen()
    detector.expectDeallocation(of: alert)
    scheduler.advance(0.3)
    detector.expectDeallocation(of: screen)
    scheduler.advance(3)
    #expect(detector.summaryLabel == "Leaked: View#1, Screen#1")
    withExtendedLifetime((alert, screen)) {}
  }

  @Test func aSweepThatRunsEarlyIsFollowedByOneAtTheDeadline() {
    let scheduler = EarlyTimerScheduler(earliness: .milliseconds(3))
    let detector = LeakDetector(scheduler: scheduler)
    let screen = Screen()
    detector.expectDeallocation(of: screen)
    scheduler.advance(0.998)
    #expect(detector.summaryLabel == "No issues detected")
    scheduler.advance(0.002)
    #expect(detector.summaryLabel == "Leaked: Screen#1")
    withExtendedLifetime(screen) {}
  }
}
