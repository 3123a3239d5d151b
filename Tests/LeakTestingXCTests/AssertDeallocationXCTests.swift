import LeakClock
import LeakTesting
import XCTest

final class AssertDeallocationXCTests: FailureRecordingTestCase {
  func testPassesForAnObjectNothingElseHolds() {
    let failures = recordingFailures {
      XCTAssertTrue(assertDeallocation(of: { ClosureHolder() }).passed)
    }
    XCTAssertEqual(failures, [])
  }

  func testFailsNamingTheTypeOfAnObjectKeptAliveByItsOwnClosure() {
    var callLine = 0
    let failures = recordingFailures {
      var leaked: ClosureHolder?
      callLine = #line + 1
      let result = assertDeallocation(of: { ClosureHolder() }) { holder in
        holder.captureSelf()
        leaked = holder
      }
      XCTAssertEqual(result.failures, ["ClosureHolder is still alive after it should have deallocated"])
      leaked?.breakCycle()
    }
    XCTAssertEqual(failures.map(\.message), ["ClosureHolder is still alive after it should have deallocated"])
    XCTAssertEqual(failures.map(\.line), [callLine])
    XCTAssertEqual(failures.map(\.file), ["\(#filePath)"])
  }

  func testFailsForAScreenKeptAliveAfterItIsDismissed() {
    let failures = recordingFailures {
      let world = World()
      var leaked: FeedScreen?
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
    XCTAssertEqual(failures.map(\.message), ["FeedScreen is still alive 2.0 s after it was dismissed"])
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
  /// real-time wait can let main-queue work run. Bounded to a few milliseconds.
  func testTheSynchronousRealTimeWaitRunsMainQueueWork() {
    let start = ContinuousClock.now
    let failures = recordingFailures {
      assertDeallocation(
        of: { MainQueueWorker(delay: .milliseconds(5)) },
        wait: .realTime(timeout: .milliseconds(150), poll: .milliseconds(2)))
    }
    XCTAssertEqual(failures, [])
    XCTAssertLessThan(ContinuousClock.now - start, .milliseconds(200))
  }
}
