import LeakLabTestSupport
import LeakTesting
import XCTest

final class RetainGraphAttachmentXCTests: FailureRecordingTestCase {
  func testAFailureUnderXCTestCarriesTheRetainGraphAsDOT() throws {
    let failures = recordingFailures {
      weak var leaked: ClosureHolder?  // weak: only the cycle may keep it alive
      assertDeallocation(
        of: { ClosureHolder() },
        using: { holder in
          holder.captureSelf()
          leaked = holder
        }, explain: retainPathWithDOT)
      leaked?.breakCycle()
    }
    XCTAssertEqual(failures.count, 1)
    let message = try XCTUnwrap(failures.first?.message)
    XCTAssertTrue(message.contains("\nretain graph (DOT):\ndigraph \"ClosureHolder\" {\n"), message)
    let dot = try XCTUnwrap(message.components(separatedBy: "retain graph (DOT):\n").last)
    let svg = try Graphviz.svg(from: dot)
    XCTAssertTrue(svg.contains("ClosureHolder"))
  }
}
