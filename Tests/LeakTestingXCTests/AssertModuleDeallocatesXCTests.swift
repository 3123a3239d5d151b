import LeakLabTestSupport
import LeakTesting
import XCTest

final class AssertModuleDeallocatesXCTests: FailureRecordingTestCase {
  func testPassesWhenEveryPartGoesWithTheRoot() {
    let failures = recordingFailures {
      XCTAssertTrue(assertModuleDeallocates { makeAndExpose(strong: false) }.passed)
    }
    XCTAssertEqual(failures, [])
  }

  func testFailsNamingEveryPartKeptAliveByAStrongBackReference() {
    let failures = recordingFailures {
      weak var leaked: Presenter?  // weak: only the cycle may keep it alive
      assertModuleDeallocates({ makeAndExpose(strong: true) }, using: { leaked = $0.presenter })
      leaked?.strongScreen = nil
    }
    assertMessages(
      failures,
      [
        "module part `screen` (ModuleScreen) is still alive after the module was released;"
          + " retained by: retain cycle: ModuleScreen → presenter: Presenter → strongScreen: ModuleScreen (strong)",
        "module part `presenter` (Presenter) is still alive after the module was released;"
          + " retained by: retain cycle: Presenter → strongScreen: ModuleScreen → presenter: Presenter (strong)",
        // Only the presenter, which is in the cycle, holds the service: no cycle runs through it.
        "module part `service` (Service) is still alive after the module was released",
      ])
  }
}
