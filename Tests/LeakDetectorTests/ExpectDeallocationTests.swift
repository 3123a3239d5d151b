import LeakClock
import LeakDetector
import Testing

@MainActor
@Suite struct ExpectDeallocationTests {
  @Test func anObjectThatDeallocatesWithinTheGraceDelayIsNotALeak() {
    let harness = Harness()
    var screen: Screen? = Screen()
    harness.detector.expectDeallocation(of: screen!)
    screen = nil
    harness.advance(1)
    #expect(harness.label == "No issues detected")
    #expect(harness.log.kinds == [.expected, .checked])
  }

  @Test func anObjectAliveAfterTheGraceDelayIsDetected() {
    let harness = Harness()
    let screen = Screen()
    harness.detector.expectDeallocation(of: screen)
    harness.advance(0.999)
    #expect(harness.label == "No issues detected")
    harness.advance(0.001)
    #expect(harness.label == "Leaked: Screen#1")
    #expect(harness.log.names(.detected) == ["Screen#1"])
    withExtendedLifetime(screen) {}
  }

  @Test func theGraceDelayIsConfigurablePerDetector() {
    let harness = Harness(.init(graceDelay: .seconds(2)))
    let screen = Screen()
    harness.detector.expectDeallocation(of: screen)
    harness.advance(1.5)
    #expect(harness.detector.report.openLeaks.isEmpty)
    harness.advance(0.5)
    #expect(harness.detector.report.openLeaks.map(\.name) == ["Screen#1"])
    withExtendedLifetime(screen) {}
  }

  @Test func theGraceDelayIsConfigurablePerCall() {
    let harness = Harness()
    let slow = Screen()
    let fast = View()
    harness.detector.expectDeallocation(of: slow, after: .seconds(5))
    harness.detector.expectDeallocation(of: fast, after: .milliseconds(100))
    harness.advance(0.1)
    #expect(harness.label == "Leaked: View#1")
    harness.advance(5)
    #expect(harness.label == "Leaked: View#1, Screen#1")
    withExtendedLifetime((slow, fast)) {}
  }

  @Test func detectionReportsTheAgeSinceTheObjectWasExpectedToGo() {
    let harness = Harness()
    let screen = Screen()
    harness.advance(3)
    harness.detector.expectDeallocation(of: screen)
    harness.advance(1)
    let leak = try! #require(harness.detector.report.openLeaks.first)
    #expect(leak.expectedAt == .seconds(3))
    #expect(leak.detectedAt == .seconds(4))
    #expect(leak.age(at: .seconds(6)) == .seconds(3))
    #expect(
      harness.log.all.last(where: { $0.kind == .detected })?.message
        == "Screen#1 is still alive 1.0 s after it should have deallocated")
    withExtendedLifetime(screen) {}
  }

  @Test func aWithdrawnExpectationIsNotReported() {
    let harness = Harness()
    let screen = Screen()
    harness.detector.expectDeallocation(of: screen)
    harness.detector.withdrawExpectations(for: screen)
    harness.advance(2)
    #expect(harness.label == "No issues detected")
    withExtendedLifetime(screen) {}
  }

  @Test func aSweepHappensOnlyWhenSomethingIsDue() {
    let harness = Harness()
    #expect(harness.scheduler.pendingWork.isEmpty)
    var screen: Screen? = Screen()
    harness.detector.expectDeallocation(of: screen!)
    harness.detector.expectDeallocation(of: Screen())
    #expect(harness.scheduler.pendingWork.count == 1)
    screen = nil
    harness.advance(1)
    // One leak stays open, so resolution checks continue; the dead one needs nothing.
    #expect(harness.detector.report.pendingExpectations == 0)
    _ = screen
  }
}
