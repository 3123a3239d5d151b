import LeakClock
import LeakDetector
import Testing

@MainActor
@Suite struct EventOrderTests {
  @Test func eventsArriveInTheOrderThingsHappened() {
    let harness = Harness()
    var screen: Screen? = Screen()
    var caches: [Cache] = [Cache(), Cache()]
    harness.detector.expectDeallocation(of: screen!)
    for cache in caches { harness.detector.track(cache, maxCount: 1) }
    harness.advance(1)
    screen = nil
    caches.removeLast()
    harness.advance(0.1)
    #expect(
      harness.log.kinds == [.expected, .budgetExceeded, .detected, .checked, .resolved, .budgetCleared])
    #expect(
      harness.log.all.map(\.time) == [
        .zero, .zero, .seconds(1), .seconds(1), .milliseconds(1100), .milliseconds(1100),
      ])
    _ = screen
  }

  @Test func detectionOrderFollowsExpectationOrderAcrossDelays() {
    let harness = Harness()
    let a = Screen()
    let b = View()
    let c = Model()
    harness.detector.expectDeallocation(of: a, after: .seconds(2))
    harness.detector.expectDeallocation(of: b, after: .seconds(1))
    harness.advance(0.5)
    harness.detector.expectDeallocation(of: c, after: .seconds(1))
    harness.advance(5)
    #expect(harness.label == "Leaked: View#1, Model#1, Screen#1")
    withExtendedLifetime((a, b, c)) {}
  }

  @Test func unsubscribingStopsDelivery() {
    let harness = Harness()
    let extra = EventLog()
    let subscription = harness.detector.subscribe { extra.append($0) }
    let screen = Screen()
    harness.detector.expectDeallocation(of: screen)
    harness.detector.unsubscribe(subscription)
    harness.advance(1)
    #expect(extra.kinds == [.expected])
    #expect(harness.log.kinds == [.expected, .detected, .checked])
    withExtendedLifetime(screen) {}
  }
}

@Suite struct SummaryLabelTests {
  @Test func cleanIsExactlyNoIssuesDetected() {
    #expect(SummaryLabel.text(openLeaks: [], budgetIssues: []) == "No issues detected")
  }

  @Test func leaksThenBudgetsCommaSeparated() {
    #expect(
      SummaryLabel.text(openLeaks: ["AlertScreen#1", "AlertController#1"], budgetIssues: ["Cache (3/2)"])
        == "Leaked: AlertScreen#1, AlertController#1, Cache (3/2)")
  }

  @Test func secondsAreFormattedForPeople() {
    #expect(Duration.seconds(10).formattedSeconds == "10.0 s")
    #expect(Duration.milliseconds(1500).formattedSeconds == "1.5 s")
    #expect(Duration.milliseconds(250).formattedSeconds == "0.25 s")
  }
}
