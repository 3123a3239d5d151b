/// What a leak check found: nothing, or one message per object that outlived its test.
///
/// Every LeakTesting helper records its failures in the running test — as an
/// `Issue` under Swift Testing, with `XCTFail` under XCTest — *and* returns
/// them, so a test can look at the messages too.
///
/// ```swift
/// let result = assertDeallocation(of: { ProfileScreen() })
/// if !result.passed { print(result) }
/// ```
public struct LeakCheckResult: Sendable, Equatable, CustomStringConvertible {
  /// The failure messages, in the order they were recorded; empty when the check passed.
  public var failures: [String]

  /// Creates a result from failure messages.
  public init(failures: [String] = []) {
    self.failures = failures
  }

  /// Whether nothing outlived its test.
  public var passed: Bool { failures.isEmpty }

  /// `passed`, or the failure messages, one a line.
  public var description: String {
    passed ? "passed" : failures.joined(separator: "\n")
  }
}
