import LeakClock
import LeakDetector
import Testing

@MainActor
@Suite struct BudgetTests {
  @Test func moreLiveInstancesThanAllowedIsAnIssueAtOnce() {
    let harness = Harness()
    let caches = [Cache(), Cache()]
    harness.detector.track(caches[0], maxCount: 1)
    #expect(harness.label == "No issues detected")
    harness.detector.track(caches[1], maxCount: 1)
    #expect(harness.label == "Leaked: Cache (2/1)")
    #expect(harness.log.kinds == [.budgetExceeded])
  }

  @Test func theLabelShowsTheCurrentLiveCount() {
    let harness = Harness()
    let caches = (0..<4).map { _ in Cache() }
    for cache in caches { harness.detector.track(cache, maxCount: 2) }
    #expect(harness.label == "Leaked: Cache (4/2)")
    #expect(harness.detector.liveCount(of: "Cache") == 4)
  }

  @Test func theIssueClearsWhenEnoughInstancesDeallocate() {
    let harness = Harness()
    var caches: [Cache] = [Cache(), Cache(), Cache()]
    for cache in caches { harness.detector.track(cache, maxCount: 2) }
    #expect(harness.label == "Leaked: Cache (3/2)")
    caches.removeLast()
    harness.advance(0.1)
    #expect(harness.label == "No issues detected")
    #expect(harness.log.kinds == [.budgetExceeded, .budgetCleared])
    #expect(harness.log.all.last?.message == "Cache (2/2): back within budget")
  }

  @Test func aGroupBudgetCountsEveryTypeInTheGroup() {
    let harness = Harness()
    let objects: [AnyObject] = [Model(), Cache(), Model()]
    for object in objects { harness.detector.track(object, maxCount: 2, group: "Models") }
    #expect(harness.label == "Leaked: Models (3/2)")
  }

  @Test func budgetIssuesFollowLeakedInstancesInTheLabel() {
    let harness = Harness()
    let screen = Screen()
    let caches = [Cache(), Cache()]
    for cache in caches { harness.detector.track(cache, maxCount: 1) }
    harness.detector.expectDeallocation(of: screen)
    harness.advance(1)
    #expect(harness.label == "Leaked: Screen#1, Cache (2/1)")
  }

  @Test func tracingTheSameObjectTwiceCountsItOnce() {
    let harness = Harness()
    let cache = Cache()
    harness.detector.track(cache, maxCount: 1)
    harness.detector.track(cache, maxCount: 1)
    #expect(harness.label == "No issues detected")
  }
}
