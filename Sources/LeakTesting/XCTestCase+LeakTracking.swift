import XCTest

extension XCTestCase {
  /// Fails the test if `object` is still alive when the test ends, checked in
  /// a teardown block and reported at the line that tracked it.
  ///
  /// ```swift
  /// final class FeedTests: XCTestCase {
  ///   func testFeedScreenDoesNotLeak() {
  ///     let screen = FeedScreen()
  ///     trackForLeaks(screen)
  ///     screen.refresh()
  ///   }
  /// }
  /// ```
  ///
  /// Teardown blocks run before `tearDown()`, so objects released there count
  /// as leaks; release them in the test, or use a ``LeakTracker`` and call
  /// ``LeakTracker/verify()`` at the end of `tearDown()`.
  ///
  /// Failure: `FeedScreen is still alive at the end of the test`, followed by
  /// `; retained by: <path>` when it is in a retain cycle; pass
  /// `explain: noRetainPath` to leave the path out.
  public func trackForLeaks(
    _ object: AnyObject,
    wait: LeakWait = .immediately,
    explain: RetainPathExplainer? = nil,
    fileID: String = #fileID, filePath: StaticString = #filePath, line: UInt = #line, column: UInt = #column
  ) {
    let tracker = LeakTracker(wait: wait, explain: explain)
    tracker.track(object, fileID: fileID, filePath: filePath, line: line, column: column)
    addTeardownBlock {
      // XCTest runs teardown blocks on the main thread.
      MainActor.assumeIsolated { _ = tracker.verify() }
    }
  }
}
