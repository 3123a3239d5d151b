import LeakClock
import LeakLabTestSupport
import LeakTesting
import ScreenKit
import Testing

@MainActor
/// In a process of its own: a survivor that no cycle explains is searched
/// for in memory, and that answer depends on what else lives in the process.
@Suite(.inProcessOfItsOwn("AssertDeallocationTests")) struct AssertDeallocationTests {
  @Test func passesForAnObjectNothingElseHolds() {
    let result = assertDeallocation(of: { ClosureHolder() }) { holder in
      holder.onChange = { print("changed") }
    }
    #expect(result.passed)
    #expect(result.failures.isEmpty)
  }

  @Test func failsNamingTheTypeAndRetainCycleOfAnObjectKeptAliveByItsOwnClosure() {
    let message =
      "ClosureHolder is still alive after it should have deallocated;"
      + " retained by: retain cycle: ClosureHolder → onChange: closure in ClosureHolder.captureSelf()"
      + " → captures ClosureHolder (strong)"
    weak var leaked: ClosureHolder?  // weak: only the cycle may keep it alive
    let recorded = expectIssues([message]) {
      let result = assertDeallocation(of: { ClosureHolder() }) { holder in
        holder.captureSelf()
        leaked = holder
      }
      #expect(result.failures == [message])
      #expect(!result.passed)
    }
    #expect(recorded.lines == [#line - 7])
    leaked?.breakCycle()
  }

  @Test(arguments: [false, true])
  func failsForAStrongDelegate(strong: Bool) {
    let expected =
      strong
      ? [
        "Owner is still alive after it should have deallocated;"
          + " retained by: retain cycle: Owner → child: Child → strongDelegate: Owner (strong)"
      ] : []
    weak var leaked: Owner?  // weak: only the cycle may keep it alive
    expectIssues(expected) {
      assertDeallocation(of: { Owner(strongDelegate: strong) }, using: { leaked = $0 })
    }
    leaked?.child.strongDelegate = nil
  }

  @Test func aStrongDelegateCycleNamesTheDelegateEdge() {
    weak var leaked: Owner?
    let recorded = expectIssues([
      "Owner is still alive after it should have deallocated;"
        + " retained by: retain cycle: Owner → child: Child → strongDelegate: Owner (strong)"
    ]) {
      assertDeallocation(of: { Owner(strongDelegate: true) }, using: { leaked = $0 })
    }
    #expect(recorded.messages.first?.hasSuffix("→ strongDelegate: Owner (strong)") == true)
    leaked?.child.strongDelegate = nil
  }

  @Test func noRetainPathLeavesThePathOutAndNilMeansTheDefault() {
    weak var first: ClosureHolder?
    weak var second: ClosureHolder?
    expectIssues([
      "ClosureHolder is still alive after it should have deallocated",
      "ClosureHolder is still alive after it should have deallocated;"
        + " retained by: retain cycle: ClosureHolder → onChange: closure in ClosureHolder.captureSelf()"
        + " → captures ClosureHolder (strong)",
    ]) {
      assertDeallocation(
        of: { ClosureHolder() },
        using: { holder in
          holder.captureSelf()
          first = holder
        },
        explain: noRetainPath)
      assertDeallocation(
        of: { ClosureHolder() },
        using: { holder in
          holder.captureSelf()
          second = holder
        },
        explain: nil)
    }
    first?.breakCycle()
    second?.breakCycle()
  }

  @Test func appendsTheRetainPathWhenAnExplainerIsGiven() {
    expectIssues([
      "ClosureHolder is still alive after it should have deallocated;"
        + " retained by: ClosureHolder.onChange -> closure context -> ClosureHolder"
    ]) {
      assertDeallocation(
        of: { ClosureHolder() }, using: { $0.captureSelf() },
        explain: { object in
          (object as? ClosureHolder)?.onChange != nil
            ? "ClosureHolder.onChange -> closure context -> ClosureHolder" : nil
        })
    }
  }

  // MARK: Waiting on the manual clock

  @Test func waitsOnTheManualClockUntilPendingWorkRuns() {
    let scheduler = ManualScheduler()
    let result = assertDeallocation(
      of: { PendingWorker(scheduler: scheduler, delay: .milliseconds(700)) },
      wait: .manual(scheduler, timeout: .seconds(2), step: .milliseconds(100)))
    #expect(result.passed)
    #expect(scheduler.now == .milliseconds(700))  // stopped as soon as it was gone
  }

  /// The wait's message alone: what holds the worker (the test's own
  /// scheduler) is no part of this test, and a memory search's answer
  /// depends on what the suite's earlier tests left in the process (a stale
  /// word behind a task parked on the main queue was a path from
  /// `_dispatch_main_q`, 1 fresh-clone run in 1).
  @Test func failsWhenPendingWorkOutlivesTheTimeout() {
    let scheduler = ManualScheduler()
    expectIssues(["PendingWorker is still alive 2.0 s after it should have deallocated"]) {
      assertDeallocation(
        of: { PendingWorker(scheduler: scheduler, delay: .seconds(10)) },
        wait: .manual(scheduler, timeout: .seconds(2)), explain: noRetainPath)
    }
    #expect(scheduler.now == .seconds(2))
    scheduler.advance(by: .seconds(8))  // let the work run and release the worker
  }

  // MARK: Present and dismiss

  @Test func passesForAScreenReleasedWhenItIsDismissed() {
    let world = World()
    let result = assertDeallocation(
      of: { FeedScreen(title: "Feed") },
      afterPresenting: { world.home.present($0) },
      dismissing: { $0.dismiss() },
      wait: .manual(world.scheduler))
    #expect(result.passed)
    #expect(world.home.presentedScreen == nil)
  }

  @Test func failsForAScreenKeptAliveAfterItIsDismissed() {
    let world = World()
    weak var leaked: FeedScreen?  // weak: only the cycle may keep it alive
    expectIssues([
      "FeedScreen is still alive 2.0 s after it was dismissed;"
        + " retained by: retain cycle: FeedScreen → onRefresh: closure in FeedScreen.leak()"
        + " → captures FeedScreen (strong)"
    ]) {
      assertDeallocation(
        of: { FeedScreen(title: "Feed") },
        afterPresenting: { screen in
          world.home.present(screen)
          screen.leak()
          leaked = screen
        },
        dismissing: { $0.dismiss() },
        wait: .manual(world.scheduler, timeout: .seconds(2)))
    }
    // The detector saw it too, after its grace delay.
    #expect(world.detector.summaryLabel == "Leaked: FeedScreen#1")
    leaked?.onRefresh = nil
  }

  // MARK: async

  @Test func theAsyncOverloadWaitsOnTheManualClockToo() async {
    let scheduler = ManualScheduler()
    await expectIssues(["PendingWorker is still alive 1.0 s after it should have deallocated"]) {
      await assertDeallocation(
        of: { PendingWorker(scheduler: scheduler, delay: .seconds(5)) },
        using: { _ in await Task.yield() },
        wait: .manual(scheduler, timeout: .seconds(1)), explain: noRetainPath)
    }
    scheduler.advance(by: .seconds(4))
  }

  /// The one real-time test: an object released by main-queue work a few
  /// milliseconds later. The wait returns as soon as it is gone; the long
  /// timeout only bounds a broken wait (parallel main-actor tests can delay
  /// main-queue work, so no duration is asserted here: speed is for benchmarks;
  /// under a sanitizer in a full run the main queue was busy for over 10 s).
  @Test(.timeLimit(.minutes(2)))
  func theAsyncOverloadWaitsInRealTimeForMainQueueWork() async {
    let result = await assertDeallocation(
      of: { MainQueueWorker(delay: .milliseconds(5)) },
      wait: .realTime(timeout: .seconds(90), poll: .milliseconds(2)))
    #expect(result.passed)
  }
}

@Test(.runsSuitesAlone) func assertDeallocationTestsPassInAProcessOfTheirOwn() throws {
  try ProcessOfItsOwn.expectPasses("LeakTestingTests.AssertDeallocationTests")
}
