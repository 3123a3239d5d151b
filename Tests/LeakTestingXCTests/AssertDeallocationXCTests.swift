import LeakClock
import LeakLabTestSupport
import LeakTesting
import XCTest

final class AssertDeallocationXCTests: FailureRecordingTestCase {
  func testPassesForAnObjectNothingElseHolds() {
    let failures = recordingFailures {
      XCTAssertTrue(assertDeallocation(of: { ClosureHolder() }).passed)
    }
    XCTAssertEqual(failures, [])
  }

  func testFailsNamingTheTypeAndRetainCycleOfAnObjectKeptAliveByItsOwnClosure() {
    let message =
      "ClosureHolder is still alive after it should have deallocated;"
      + " retained by: retain cycle: ClosureHolder → onChange: closure in ClosureHolder.captureSelf()"
      + " → captures ClosureHolder (strong)"
    var callLine = 0
    let failures = recordingFailures {
      weak var leaked: ClosureHolder?  // weak: only the cycle may keep it alive
      callLine = #line + 1
      let result = assertDeallocation(of: { ClosureHolder() }) { holder in
        holder.captureSelf()
        leaked = holder
      }
      XCTAssertEqual(result.failures, [message])
      leaked?.breakCycle()
    }
    assertMessages(failures, [message])
    XCTAssertEqual(failures.map(\.line), [callLine])
    XCTAssertEqual(failures.map(\.file), ["\(#filePath)"])
  }

  func testFailsForAScreenKeptAliveAfterItIsDismissed() {
    let failures = recordingFailures {
      let world = World()
      weak var leaked: FeedScreen?  // weak: only the cycle may keep it alive
      assertDeallocation(
        of: { FeedScreen(title: "Feed") },
        afterPresenting: { screen in
          world.home.present(screen)
          screen.leak()
          leaked = screen
        },
        dismissing: { $0.dismiss() },
        wait: .manual(world.scheduler, timeout: .seconds(2)))
      XCTAssertEqual(world.detector.summaryLabel, "Leaked: FeedScreen#1")
      leaked?.onRefresh = nil
    }
    assertMessages(
      failures,
      [
        "FeedScreen is still alive 2.0 s after it was dismissed;"
          + " retained by: retain cycle: FeedScreen → onRefresh: closure in FeedScreen.leak()"
          + " → captures FeedScreen (strong)"
      ])
  }

  func testAStrongDelegateCycleNamesTheDelegateEdge() {
    let failures = recordingFailures {
      weak var leaked: Owner?  // weak: only the cycle may keep it alive
      assertDeallocation(of: { Owner(strongDelegate: true) }, using: { leaked = $0 })
      leaked?.child.strongDelegate = nil
    }
    assertMessages(
      failures,
      [
        "Owner is still alive after it should have deallocated;"
          + " retained by: retain cycle: Owner → child: Child → strongDelegate: Owner (strong)"
      ])
  }

  func testNoRetainPathLeavesThePathOut() {
    let failures = recordingFailures {
      weak var leaked: ClosureHolder?
      assertDeallocation(
        of: { ClosureHolder() },
        using: { holder in
          holder.captureSelf()
          leaked = holder
        },
        explain: noRetainPath)
      leaked?.breakCycle()
    }
    assertMessages(failures, ["ClosureHolder is still alive after it should have deallocated"])
  }

  func testWaitsOnTheManualClockUntilPendingWorkRuns() {
    let failures = recordingFailures {
      let scheduler = ManualScheduler()
      assertDeallocation(
        of: { PendingWorker(scheduler: scheduler, delay: .milliseconds(700)) },
        wait: .manual(scheduler, timeout: .seconds(2)))
      XCTAssertEqual(scheduler.now, .milliseconds(700))
    }
    XCTAssertEqual(failures, [])
  }

  /// XCTest runs tests on the main thread's run loop, so the synchronous
  /// real-time wait can let main-queue work run. It returns as soon as the
  /// object is gone; the timeout only bounds a broken wait.
  func testTheSynchronousRealTimeWaitRunsMainQueueWork() {
    let failures = recordingFailures {
      assertDeallocation(
        of: { MainQueueWorker(delay: .milliseconds(5)) },
        wait: .realTime(timeout: .seconds(10), poll: .milliseconds(2)))
    }
    XCTAssertEqual(failures, [])
  }
}
