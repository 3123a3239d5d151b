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
      var leaked: Presenter?
      assertModuleDeallocates({ makeAndExpose(strong: true) }, using: { leaked = $0.presenter })
      leaked?.strongScreen = nil
    }
    XCTAssertEqual(
      failures.map(\.message),
      [
        "module part `screen` (ModuleScreen) is still alive after the module was released",
        "module part `presenter` (Presenter) is still alive after the module was released",
        "module part `service` (Service) is still alive after the module was released",
      ])
  }
}
