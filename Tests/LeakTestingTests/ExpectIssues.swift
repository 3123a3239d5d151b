import LeakLabLocking
import LeakLabTestSupport
import Testing

/// The issues a block recorded: their comments and lines.
final class RecordedIssues: Sendable {
  private let storage = Locked<[(message: String, line: Int?)]>([])

  func append(_ issue: Issue) {
    let message = issue.comments.map(\.rawValue).joined(separator: "\n")
    storage.withLock { $0.append((message, issue.sourceLocation?.line)) }
  }

  var messages: [String] { storage.withLock { $0.map(\.message) } }
  var lines: [Int?] { storage.withLock { $0.map(\.line) } }
}

/// Runs `body` and expects it to record exactly the issues `expected`, in
/// order, and nothing else: each one is a known issue only if its message is
/// one of `expected`, word for word. With nothing expected, any issue fails
/// the test.
@MainActor
@discardableResult
func expectIssues(
  _ expected: [String], sourceLocation: SourceLocation = #_sourceLocation, _ body: () -> Void
) -> RecordedIssues {
  let recorded = RecordedIssues()
  guard !expected.isEmpty else {
    body()  // any issue recorded here fails the test
    return recorded
  }
  withKnownIssue(sourceLocation: sourceLocation) {
    body()
  } matching: { issue in
    recorded.append(issue)
    return expected.contains(issue.comments.map(\.rawValue).joined(separator: "\n"))
  }
  #expect(recorded.messages == expected, sourceLocation: sourceLocation)
  return recorded
}

/// The `async` twin of ``expectIssues(_:sourceLocation:_:)``.
@MainActor
@discardableResult
func expectIssues(
  _ expected: [String], sourceLocation: SourceLocation = #_sourceLocation,
  _ body: () async -> Void
) async -> RecordedIssues {
  let recorded = RecordedIssues()
  guard !expected.isEmpty else {
    await body()
    return recorded
  }
  await withKnownIssue(sourceLocation: sourceLocation) {
    await body()
  } matching: { issue in
    recorded.append(issue)
    return expected.contains(issue.comments.map(\.rawValue).joined(separator: "\n"))
  }
  #expect(recorded.messages == expected, sourceLocation: sourceLocation)
  return recorded
}
