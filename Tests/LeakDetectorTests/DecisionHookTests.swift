import LeakClock
import LeakDetector
import Testing

@MainActor
@Suite struct DecisionHookTests {
  @Test func theHookSeesTypeInstanceAgeMessageAndKind() {
    let harness = Harness()
    let seen = EventLog()
    harness.detector.onDetect = { event in
      seen.append(event)
      return .report
    }
    let screen = Screen()
    harness.detector.expectDeallocation(of: screen)
    harness.advance(1)
    let event = try! #require(seen.all.first)
    #expect(event.kind == .detected)
    #expect(event.typeName == "Screen")
    #expect(event.instance == 1)
    #expect(event.age == .seconds(1))
    #expect(event.message.hasPrefix("Screen#1 is still alive"))
    #expect(harness.log.all.last(where: { $0.kind == .detected })?.decision == .report)
    withExtendedLifetime(screen) {}
  }

  @Test func logOnlyRecordsTheLeakButKeepsItOutOfTheLabel() {
    let harness = Harness()
    harness.detector.onDetect = { _ in .logOnly }
    let screen = Screen()
    harness.detector.expectDeallocation(of: screen)
    harness.advance(1)
    #expect(harness.label == "No issues detected")
    #expect(harness.detector.report.logged.map(\.name) == ["Screen#1"])
    #expect(harness.detector.history.map(\.decision) == [.logOnly])
    withExtendedLifetime(screen) {}
  }

  @Test func ignoreMeansNeverReportedAgainNotEvenWhenItResolves() {
    let harness = Harness()
    harness.detector.onDetect = { _ in .ignore }
    var screen: Screen? = Screen()
    harness.detector.expectDeallocation(of: screen!)
    harness.advance(1)
    harness.detector.onDetect = nil
    harness.detector.expectDeallocation(of: screen!)
    harness.advance(1)
    screen = nil
    harness.advance(1)
    #expect(harness.label == "No issues detected")
    #expect(harness.log.kinds == [.expected, .expected])
    #expect(harness.detector.history.isEmpty)
  }

  @Test func ignoreRulesByTypeNameSuppressLeaksAndBudgets() {
    let harness = Harness(.init(ignoredTypeNames: ["Screen"]))
    harness.detector.ignore(typeNamed: "Cache")
    let screen = Screen()
    let view = View()
    let caches = [Cache(), Cache()]
    for cache in caches { harness.detector.track(cache, maxCount: 1) }
    harness.detector.expectDeallocation(of: screen)
    harness.detector.expectDeallocation(of: view)
    harness.advance(1)
    #expect(harness.label == "Leaked: View#1")
    withExtendedLifetime((screen, view)) {}
  }

  @Test func theHookDecidesForExceededBudgetsToo() {
    let harness = Harness()
    harness.detector.onDetect = { $0.kind == .budgetExceeded ? .ignore : .report }
    let caches = [Cache(), Cache()]
    for cache in caches { harness.detector.track(cache, maxCount: 1) }
    #expect(harness.label == "No issues detected")
  }

  @Test func theExplainersPathIsInTheDetectionMessageAndTheReport() {
    let harness = Harness()
    harness.detector.explainer = { object in "retain cycle: \(type(of: object)) → self (strong)" }
    let screen = Screen()
    harness.detector.expectDeallocation(of: screen)
    harness.advance(1)
    #expect(
      harness.log.all.last(where: { $0.kind == .detected })?.message
        == "Screen#1 is still alive 1.0 s after it should have deallocated; retained by: retain cycle: Screen → self (strong)"
    )
    #expect(harness.detector.report.openLeaks.first?.retainPath == "retain cycle: Screen → self (strong)")
    withExtendedLifetime(screen) {}
  }

  @Test func aLaterAnswerReplacesTheReportedPathButNotTheDeliveredMessage() {
    let harness = Harness()
    harness.detector.explainer = { _ in "quick" }
    let screen = Screen()
    let other = Screen()
    harness.detector.expectDeallocation(of: screen)
    #expect(!harness.detector.updateRetainPath(of: screen, to: "too early"))  // not reported yet
    harness.advance(1)
    #expect(harness.detector.updateRetainPath(of: screen, to: "held from root: global"))
    #expect(!harness.detector.updateRetainPath(of: other, to: "not a leak"))
    #expect(harness.detector.report.openLeaks.map(\.retainPath) == ["held from root: global"])
    let message = harness.log.all.last(where: { $0.kind == .detected })?.message
    #expect(message?.hasSuffix("retained by: quick") == true)
    withExtendedLifetime((screen, other)) {}
  }
}
