import Foundation
import Testing
import XCTest

/// Where a helper was called, from the `#fileID`, `#filePath`, `#line` and
/// `#column` defaults of its parameters.
struct CallSite: Sendable {
  var fileID: String
  var filePath: StaticString
  var line: UInt
  var column: UInt

  var sourceLocation: SourceLocation {
    SourceLocation(
      fileID: fileID, filePath: "\(filePath)", line: Int(line), column: Int(column))
  }
}

/// Records `message` as a failure of the running test, at `site`.
///
/// Under Swift Testing (`Test.current` is set) the failure is an `Issue`;
/// otherwise it goes to XCTest through `XCTFail`. There is no global switch:
/// the running test decides.
func recordFailure(_ message: String, at site: CallSite) {
  if Test.current != nil {
    Issue.record(Comment(rawValue: message), sourceLocation: site.sourceLocation)
  } else {
    XCTFail(message, file: site.filePath, line: site.line)
  }
}

/// Records every failure of `result` at `site`, then returns `result`.
@discardableResult
func record(_ result: LeakCheckResult, at site: CallSite) -> LeakCheckResult {
  for message in result.failures { recordFailure(message, at: site) }
  return result
}

/// Whether a synchronous real-time wait is running where it cannot work:
/// on the main actor inside a Swift Testing test, the main queue is busy
/// running the test, so work it should run never runs.
var isBlockingSwiftTestingMainQueue: Bool {
  Test.current != nil && Thread.isMainThread
}
