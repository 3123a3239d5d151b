import LeakClock
import LeakDetector
import LeakLabTestSupport
import LeakTesting
import ScreenKit
import Testing

@MainActor
@Suite struct LeakStepTestTests {
  /// Opens a feed screen on the world's home screen; `leaky` makes it capture itself.
  func open(_ world: World, leaky: Bool) -> FeedScreen {
    let feed = FeedScreen(title: "Feed")
    world.home.present(feed)
    if leaky { feed.leak() }
    return feed
  }

  @Test func passesAndLogsEveryStepOfACleanFlow() {
    let world = World()
    let steps = LeakStepTest(detector: world.detector)
    steps.step("open feed") { _ = open(world, leaky: false) }
    steps.step("close feed") { world.window.goBack() }
    #expect(steps.firstFailure == nil)
    #expect(steps.transcript == "1. open feed -> No issues detected\n2. close feed -> No issues detected")
    #expect(world.scheduler.now == .seconds(2))  // one grace delay per step
  }

  @Test func failsNamingTheFirstStepThatLeaked() {
    let world = World()
    let steps = LeakStepTest(detector: world.detector)
    var feed: FeedScreen?
    expectIssues([
      "step 3 'close feed' leaked: expected `No issues detected`, got `Leaked: FeedScreen#1`"
    ]) {
      steps.step("open feed") { feed = open(world, leaky: true) }
      steps.step("refresh") { feed?.onRefresh?() }
      steps.step("close feed") {
        world.window.goBack()
        feed = nil
      }
      steps.step("wait") {}  // still leaking: logged, not reported again
    }
    #expect(steps.firstFailure?.number == 3)
    #expect(steps.steps.map(\.passed) == [true, true, false, false])
    #expect(
      steps.transcript == """
        1. open feed -> No issues detected
        2. refresh -> No issues detected
        3. close feed -> Leaked: FeedScreen#1
        4. wait -> Leaked: FeedScreen#1
        """)
    world.window.rootScreen = nil
  }

  @Test func checksAnExpectedLabelAndAppendsRetainPathsFromTheDetector() {
    let world = World()
    world.detector.explainer = { object in
      object is FeedScreen ? "FeedScreen.onRefresh -> closure context -> FeedScreen" : nil
    }
    let steps = LeakStepTest(detector: world.detector)
    var feed: FeedScreen?
    steps.step("open feed") { feed = open(world, leaky: true) }
    steps.step("close feed", expecting: "Leaked: FeedScreen#1") { world.window.goBack() }
    expectIssues([
      "step 3 'fix the leak' leaked: expected `No issues detected`, got `Leaked: FeedScreen#1`"
        + "; FeedScreen#1 retained by: FeedScreen.onRefresh -> closure context -> FeedScreen"
    ]) {
      steps.step("fix the leak", settle: .zero) {}
    }
    feed?.onRefresh = nil
    feed = nil
    let resolved = steps.step("after the fix", settle: .milliseconds(100)) {}
    #expect(resolved.passed)
  }
}
