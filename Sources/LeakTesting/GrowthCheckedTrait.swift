import Testing

/// A Swift Testing trait that runs each test again and again and fails it
/// when a type's live count grows with the runs (see
/// ``assertNoGrowth(iterations:warmUp:of:fileID:filePath:line:column:_:)``):
/// the test's body is one iteration.
///
/// ```swift
/// @Test(.noGrowth(iterations: 20)) func handlingARequestKeepsNothing() async throws {
///   try await server.handle(Request(path: "/"))
/// }
/// // AuditRecord grew by 1.0 per iteration (2 → 22 after 20 iterations); kept by: …
/// ```
public struct GrowthCheckedTrait: TestTrait, TestScoping {
  /// Runs of the test between the two censuses.
  public var iterations: Int
  /// Runs before the first census.
  public var warmUp: Int
  /// Qualified names of the types to watch (every class but the runtime's,
  /// the frameworks' and LeakLab's when empty).
  public var types: [String]

  public func provideScope(
    for test: Test, testCase: Test.Case?, performing function: @Sendable () async throws -> Void
  ) async throws {
    // Applied to a parameterized test, each of its cases is checked on its own.
    guard testCase != nil else { return try await function() }
    let check = GrowthCheck(iterations: iterations, types: types)
    for _ in 0..<max(0, warmUp) { try await function() }
    let before = check.before()
    for _ in 0..<max(1, iterations) { try await function() }
    for message in check.after(before).failures {
      Issue.record(Comment(rawValue: message), sourceLocation: test.sourceLocation)
    }
  }
}

extension Trait where Self == GrowthCheckedTrait {
  /// Runs the test `warmUp` times, then `iterations` times between two
  /// censuses of the process, and fails it when a type (of `types`, when
  /// given) gained at least one live instance per run.
  public static func noGrowth(iterations: Int = 10, warmUp: Int = 2, of types: [Any.Type] = []) -> Self {
    GrowthCheckedTrait(iterations: iterations, warmUp: warmUp, types: types.map { String(reflecting: $0) })
  }
}
