import LeakClock
import ScreenKit
import Testing

@testable import Scenarios

/// `task-zombie`: `[weak self]` frees the screen, yet the task keeps polling
/// until it is cancelled. The task runs on the main actor, not on the manual
/// clock: the tests let it take its turns with `ScenarioRunner.settle` (no sleeps).
@MainActor
@Suite struct TaskZombieTests {
  /// Opens the scenario, follows the match for two polls, closes it and lets `seconds` pass.
  func followAndClose(_ mode: ScenarioMode, rig: Rig, seconds: Int) async
    -> (feed: ScoreFeed, task: Task<Void, Never>?, log: [String])
  {
    weak let screen = rig.harness.open(Catalogue.taskZombie, mode: mode) as? LiveScoresScreen
    let feed = screen!.feed
    rig.harness.runAction(at: 0)
    let task = screen?.task
    await ScenarioRunner.settle(rig.scheduler, until: { feed.requests == 1 })
    for second in 1...2 {
      rig.scheduler.advance(by: .seconds(1))
      // Each answer brings the next request while the screen is open.
      await ScenarioRunner.settle(rig.scheduler, until: { feed.requests == 1 + second })
    }
    #expect(screen?.scoreLabel.text == "Score: 2 : 0")
    rig.harness.close()
    await pass(seconds, rig: rig, feed: feed, polling: mode == .strong)
    return (feed, task, rig.harness.environment.activity.drain().map(\.text))
  }

  /// Lets `seconds` pass on the clock, one at a time; while the task is
  /// `polling`, each second's answer brings one more request, which each
  /// second waits for.
  func pass(_ seconds: Int, rig: Rig, feed: ScoreFeed, polling: Bool) async {
    for _ in 0..<seconds {
      let expected = feed.requests + 1
      rig.scheduler.advance(by: .seconds(1))
      await ScenarioRunner.settle(rig.scheduler, until: { !polling || feed.requests == expected })
    }
  }

  @Test func theLeakyFormFreesTheScreenButKeepsPollingForIt() async {
    let rig = Rig()
    let (feed, task, log) = await followAndClose(.strong, rig: rig, seconds: 5)
    #expect(rig.label == "No issues detected", "no detector can see this one")
    #expect(feed.requests == 8, "3 while open, then one a second for the 5 seconds after the close")
    #expect(
      log == [
        "ScoreFeed#1, its screen closed 1.0 s ago, requested the score",
        "ScoreFeed#1, its screen closed 2.0 s ago, requested the score (2nd time)",
        "ScoreFeed#1, its screen closed 3.0 s ago, requested the score (3rd time)",
        "ScoreFeed#1, its screen closed 5.0 s ago, requested the score (5th time)",
      ])
    // `while true` does not look at cancellation: cancelling alone is not the fix.
    task?.cancel()
    await pass(2, rig: rig, feed: feed, polling: true)
    #expect(feed.requests == 10)
  }

  @Test func theFixedFormCancelsTheTaskAndStopsPolling() async {
    let rig = Rig()
    let (feed, _, log) = await followAndClose(.weak, rig: rig, seconds: 5)
    #expect(rig.label == "No issues detected")
    #expect(feed.requests == 3, "the request in flight at the close is the last one")
    #expect(log.isEmpty)
  }
}
