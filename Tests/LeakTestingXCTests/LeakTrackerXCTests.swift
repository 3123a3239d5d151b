import LeakClock
import LeakLabTestSupport
import LeakTesting
import XCTest

final class LeakTrackerXCTests: FailureRecordingTestCase {
  /// A clock nobody advances; it lives as long as the test case, past teardown.
  let idleScheduler = ManualScheduler()

  func testTrackForLeaksPassesForObjectsGoneByTheEndOfTheTest() {
    trackForLeaks(ClosureHolder())
    trackForLeaks(Owner(strongDelegate: false))
  }

  /// A pending scheduler item is not visible to the explainer: no path is appended.
  func testTrackForLeaksFailsInTeardownAtTheLineThatTrackedTheSurvivor() {
    expectFailuresUntilTeardown(["PendingWorker is still alive at the end of the test"])
    trackForLeaks(PendingWorker(scheduler: idleScheduler, delay: .seconds(1)))
  }

  func testTrackForLeaksCanWaitOnTheManualClock() {
    let scheduler = ManualScheduler()
    trackForLeaks(
      PendingWorker(scheduler: scheduler, delay: .seconds(1)), wait: .manual(scheduler, timeout: .seconds(2)))
  }

  func testATrackerVerifiedByHandNamesEachSurvivor() {
    let holder = ClosureHolder()
    holder.captureSelf()
    let leaks = LeakTracker()
    leaks.track(holder)
    let trackedLine = #line - 1
    leaks.track(Owner(strongDelegate: false))
    let failures = recordingFailures { leaks.verify() }
    XCTAssertEqual(
      failures.map(\.message),
      [
        "ClosureHolder is still alive at the end of the test;"
          + " retained by: retain cycle: ClosureHolder → onChange: closure in ClosureHolder.captureSelf()"
          + " → captures ClosureHolder (strong)"
      ])
    XCTAssertEqual(failures.map(\.line), [trackedLine])
    holder.breakCycle()
  }
}
