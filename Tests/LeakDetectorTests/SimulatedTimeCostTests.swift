import LeakClock
import LeakDetector
import Testing

/// On a manual clock, time that passes with nothing happening costs nothing:
/// the detector's re-checks of an open leak do not run once per 100 ms of
/// simulated time, and still see every change as soon as it happens.
@MainActor
@Suite struct SimulatedTimeCostTests {
  @Test func anHourWithAnOpenLeakRunsAHandfulOfSweeps() {
    let harness = Harness()
    let screen = Screen()
    harness.detector.expectDeallocation(of: screen)
    harness.advance(1)
    #expect(harness.label == "Leaked: Screen#1")
    let ran = harness.scheduler.runUntilIdle(limit: .seconds(3600))
    #expect(ran <= 2)
    for _ in 0..<20 { harness.advance(3600) }
    #expect(harness.label == "Leaked: Screen#1")
    withExtendedLifetime(screen) {}
  }

  /// Seen at the first moment it can be: when the test next calls in.
  @Test func aLeakReleasedByTheTestIsSeenAtTheNextAdvance() {
    let harness = Harness()
    var screen: Screen? = Screen()
    harness.detector.expectDeallocation(of: screen!)
    harness.advance(1)
    harness.advance(3600)
    #expect(harness.label == "Leaked: Screen#1")
    screen = nil
    harness.advance(0.1)
    #expect(harness.label == "No issues detected")
    #expect(harness.log.all.last?.message == "Screen#1 deallocated: resolved after 3601.0 s")
  }

  @Test func aLeakReleasedByScheduledWorkResolvesWhenTheWorkRuns() {
    let harness = Harness()
    var screen: Screen? = Screen()
    harness.detector.expectDeallocation(of: screen!)
    harness.scheduler.schedule(after: .milliseconds(2345)) { [screen] in _ = screen }
    screen = nil
    harness.advance(3600)
    let leak = try! #require(harness.detector.report.leaks.first)
    #expect(leak.status == .resolved(after: .milliseconds(2345)))
  }

  @Test func anExpectationAddedWhileAPollWaitsIsStillCheckedOnTime() {
    let harness = Harness()
    let first = Screen()
    harness.detector.expectDeallocation(of: first)
    harness.advance(1)
    harness.advance(10)
    let second = View()
    harness.detector.expectDeallocation(of: second)
    harness.advance(1)
    #expect(harness.label == "Leaked: Screen#1, View#1")
    withExtendedLifetime((first, second)) {}
  }
}
