import LeakClock
import LeakDetector
import Testing

@MainActor
@Suite struct ResolutionTests {
  @Test func aLeakThatDeallocatesLaterResolvesAndLeavesTheLabel() {
    let harness = Harness()
    var screen: Screen? = Screen()
    harness.detector.expectDeallocation(of: screen!)
    // Like a pending asyncAfter block: it holds the screen for ten seconds.
    harness.scheduler.schedule(after: .seconds(10)) { [screen] in _ = screen }
    screen = nil
    harness.advance(1)
    #expect(harness.label == "Leaked: Screen#1")
    harness.advance(9)
    #expect(harness.label == "No issues detected")
    let leak = try! #require(harness.detector.report.leaks.first)
    #expect(leak.status == .resolved(after: .seconds(10)))
    #expect(harness.log.all.last?.message == "Screen#1 deallocated: resolved after 10.0 s")
  }

  @Test func temporaryAndPermanentLeaksAreToldApart() {
    let harness = Harness()
    var temporary: Screen? = Screen()
    let permanent = View()
    harness.detector.expectDeallocation(of: temporary!)
    harness.detector.expectDeallocation(of: permanent)
    harness.advance(1)
    temporary = nil
    harness.advance(1)
    let report = harness.detector.report
    #expect(report.leaks.map(\.isOpen) == [false, true])
    #expect(report.openLeaks.map(\.name) == ["View#1"])
    #expect(harness.label == "Leaked: View#1")
    _ = temporary
  }

  @Test func theHistoryKeepsResolvedLeaks() {
    let harness = Harness()
    var screen: Screen? = Screen()
    harness.detector.expectDeallocation(of: screen!)
    harness.advance(1)
    screen = nil
    harness.advance(1)
    #expect(harness.detector.history.map(\.kind) == [.detected, .resolved])
    #expect(harness.detector.report.leaks.count == 1)
    _ = screen
  }

  @Test func instanceNumbersArePerTypeAndStable() {
    let harness = Harness()
    let first = Screen()
    let second = Screen()
    let view = View()
    for object in [first, second, view] as [AnyObject] { harness.detector.expectDeallocation(of: object) }
    harness.advance(1)
    #expect(harness.label == "Leaked: Screen#1, Screen#2, View#1")
    // Expected again later: still the same names.
    harness.detector.expectDeallocation(of: second)
    harness.advance(1)
    #expect(harness.detector.name(of: second) == "Screen#2")
    #expect(harness.detector.name(of: Screen()) == "Screen#3")
    withExtendedLifetime((first, second, view)) {}
  }
}
