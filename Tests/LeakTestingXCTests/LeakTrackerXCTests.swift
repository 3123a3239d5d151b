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

  /// A pending scheduler item holds the survivor; the scheduler is the test
  /// case's, which XCTest's current test case (a global) holds.
  func testTrackForLeaksFailsInTeardownAtTheLineThatTrackedTheSurvivor() {
    // (No root path where the memory view cannot walk the heap: under a sanitizer.)
    let rootPath =
      memoryViewIsSupported
      ? "; retained by: held from root: global XCTCurrentTestCase in libXCTest.so → (conservative)"
        + " LeakTrackerXCTests → idleScheduler: ManualScheduler → (conservative) word 4: Array storage → [0]:"
        + " ScheduledWork → work: closure in PendingWorker.init(scheduler:delay:) → captures PendingWorker (strong)"
      : ""
    // The tracker holds the survivor while it explains it: the account is left out.
    expectFailuresUntilTeardown(
      ["PendingWorker is still alive at the end of the test" + rootPath], withoutAccount: true)
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
    assertMessages(
      failures,
      [
        "ClosureHolder is still alive at the end of the test;"
          + " retained by: retain cycle: ClosureHolder → onChange: closure in ClosureHolder.captureSelf()"
          + " → captures ClosureHolder (strong)"
      ])
    XCTAssertEqual(failures.map(\.line), [trackedLine])
    holder.breakCycle()
  }
}
