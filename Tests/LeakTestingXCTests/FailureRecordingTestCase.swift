import LeakLabTestSupport
import XCTest

/// An `XCTestCase` that can catch its own failures, to check that a helper fails.
///
/// swift-corelibs-xctest (Linux) has no `XCTExpectFailure`, but every
/// `XCTFail` ends in the current test case's open
/// `recordFailure(withDescription:inFile:atLine:expected:)`. While
/// ``recordingFailures(_:)`` runs its body, this class keeps those failures
/// instead of passing them on, so a test can compare them exactly. Everything
/// is per test case instance: no global state.
class FailureRecordingTestCase: XCTestCase {
  /// A failure caught while recording.
  struct RecordedFailure: Equatable, CustomStringConvertible {
    /// The message given to `XCTFail`.
    var message: String
    var file: String
    var line: Int
    var description: String { "\(message) (\(file):\(line))" }
  }

  /// The recording state, in a non-optional box so that the fixture check
  /// run on a subclass does not see it as a property left set.
  private final class Recorder {
    var failures: [RecordedFailure]?
    var expectedAtTeardown: (messages: [String], withoutAccount: Bool, file: StaticString, line: UInt)?
  }

  private let recorder = Recorder()

  override func recordFailure(
    withDescription description: String, inFile filePath: String, atLine lineNumber: Int, expected: Bool
  ) {
    guard recorder.failures != nil else {
      return super.recordFailure(
        withDescription: description, inFile: filePath, atLine: lineNumber, expected: expected)
    }
    // corelibs XCTest describes an `XCTFail(message)` as "failed - message".
    let message = description.hasPrefix("failed - ") ? String(description.dropFirst(9)) : description
    recorder.failures?.append(RecordedFailure(message: message, file: filePath, line: lineNumber))
  }

  /// Runs `body` on the main actor and returns the failures it recorded
  /// instead of failing the test.
  ///
  /// XCTest runs test methods on the main thread. They are not marked
  /// `@MainActor` because corelibs XCTest's test listing (`swift test
  /// --filter`) crashes on synchronous `@MainActor` test methods.
  func recordingFailures(_ body: @MainActor () throws -> Void) rethrows -> [RecordedFailure] {
    recorder.failures = []
    defer { recorder.failures = nil }
    try MainActor.assumeIsolated { try body() }
    return recorder.failures ?? []
  }

  /// Runs `body` where it is and returns the failures it recorded instead of
  /// failing the test, for helpers that need no actor.
  func recordingNonisolatedFailures(_ body: () throws -> Void) rethrows -> [RecordedFailure] {
    recorder.failures = []
    defer { recorder.failures = nil }
    try body()
    return recorder.failures ?? []
  }

  /// Expects exactly `messages` to be recorded from now until `tearDown()` —
  /// for checks that run in teardown blocks, which XCTest runs before `tearDown()`.
  ///
  /// `withoutAccount` leaves the account of the object's strong references
  /// (`; 1 of 1 strong reference found`) out of the comparison, for an
  /// object the check itself holds while it explains it: that reference can
  /// be in a register the snapshot does not see, and in this shared process a
  /// stale word in C memory then takes its room (docs/memory-view.md). The
  /// account is checked in processes of their own (LeakTestingTests).
  func expectFailuresUntilTeardown(
    _ messages: [String], withoutAccount: Bool = false, file: StaticString = #filePath, line: UInt = #line
  ) {
    recorder.failures = []
    recorder.expectedAtTeardown = (messages, withoutAccount, file, line)
  }

  /// Checks that the failures recorded have exactly the messages
  /// `expected`, in order, word for word (without the account of strong
  /// references, when `withoutAccount`).
  func assertMessages(
    _ failures: [RecordedFailure], _ expected: [String], withoutAccount: Bool = false,
    file: StaticString = #filePath, line: UInt = #line
  ) {
    let actual = failures.map(\.message).map { message in
      guard withoutAccount,
        let account = message.range(
          of: #"; \d+ of \d+ strong references? found[^;]*"#, options: .regularExpression)
      else { return message }
      return message.replacingCharacters(in: account, with: "")
    }
    XCTAssertEqual(actual, expected, file: file, line: line)
  }

  override func tearDown() {
    if let expected = recorder.expectedAtTeardown {
      let failures = recorder.failures ?? []
      recorder.failures = nil
      recorder.expectedAtTeardown = nil
      assertMessages(
        failures, expected.messages, withoutAccount: expected.withoutAccount, file: expected.file,
        line: expected.line)
    }
    super.tearDown()
  }
}
