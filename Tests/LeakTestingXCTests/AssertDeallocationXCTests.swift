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
}
