import Testing

/// A Swift Testing trait that gives each test its own ``LeakTracker`` and
/// verifies it when the test ends.
///
/// Inside the test, ``trackForLeaks(_:fileID:filePath:line:column:)`` (or
/// `LeakTracker.current`) reaches the test's tracker. Applied to a suite, the
/// trait covers every test in it, each with a fresh tracker.
///
/// ```swift
/// @MainActor @Test(.leakChecked) func feedScreenDoesNotLeak() {
///   let screen = FeedScreen()
///   trackForLeaks(screen)
///   trackForLeaks(screen.presenter)
///   screen.refresh()
/// }  // fails here if either is still alive, at the line that tracked it
/// ```
public struct LeakCheckedTrait: TestTrait, SuiteTrait, TestScoping {
  /// How the end-of-test check waits for tracked objects to go away.
  public var wait: LeakWait
  /// Explains a survivor's retain path for the failure message; `nil` uses
  /// RetainGraph's, ``noRetainPath`` leaves it out.
  public var explain: RetainPathExplainer?

  public var isRecursive: Bool { true }

  public func provideScope(
    for test: Test, testCase: Test.Case?, performing function: @Sendable () async throws -> Void
  ) async throws {
    // A suite only passes its tests through; each test case gets its own tracker.
    guard testCase != nil else { return try await function() }
    let tracker = LeakTracker(wait: wait, explain: explain)
    do {
      try await LeakTracker.$current.withValue(tracker) { try await function() }
    } catch {
      await tracker.verify()
      throw error
    }
    await tracker.verify()
  }
}

extension Trait where Self == LeakCheckedTrait {
  /// Checks the objects tracked during each test once it ends, without waiting.
  public static var leakChecked: Self { LeakCheckedTrait(wait: .immediately, explain: nil) }

  /// Checks the objects tracked during each test once it ends, waiting as `wait` says.
  ///
  /// ```swift
  /// @Test(.leakChecked(wait: .realTime(timeout: .milliseconds(500))))
  /// ```
  public static func leakChecked(wait: LeakWait = .immediately, explain: RetainPathExplainer? = nil) -> Self {
    LeakCheckedTrait(wait: wait, explain: explain)
  }
}

/// Tracks `object` for leaks in the running Swift Testing test, which must
/// have the ``LeakCheckedTrait/leakChecked`` trait; the trait checks it when
/// the test ends.
///
/// ```swift
/// @Test(.leakChecked) func presenterIsReleased() {
///   trackForLeaks(ProfilePresenter())
/// }
/// ```
///
/// Without the trait there is no tracker to add to, and the test fails saying so.
public func trackForLeaks(
  _ object: AnyObject,
  fileID: String = #fileID, filePath: StaticString = #filePath, line: UInt = #line, column: UInt = #column
) {
  guard let tracker = LeakTracker.current else {
    recordFailure(
      "trackForLeaks(_:) has no tracker: add the .leakChecked trait to the test, or use a LeakTracker",
      at: CallSite(fileID: fileID, filePath: filePath, line: line, column: column))
    return
  }
  tracker.track(object, fileID: fileID, filePath: filePath, line: line, column: column)
}
