import Foundation

/// Collects objects that must be gone by the end of a test, and checks them.
///
/// Create one per test — there is no shared tracker — hand it objects with
/// ``track(_:fileID:filePath:line:column:)`` while the test runs, and call
/// ``verify()`` when it ends. Each survivor fails the test at the line where
/// it was tracked. The tracker holds only weak references.
///
/// ```swift
/// @MainActor @Test func feedScreenDoesNotLeak() {
///   let leaks = LeakTracker()
///   defer { leaks.verify() }
///   let screen = FeedScreen()
///   leaks.track(screen)
///   leaks.track(screen.presenter)
///   screen.refresh()
/// }
/// ```
///
/// Under Swift Testing the ``LeakCheckedTrait/leakChecked`` trait does the
/// `verify()` for you; under XCTest, `XCTestCase.trackForLeaks(_:)` does it in
/// a teardown block.
///
/// Failure, one per survivor: `FeedScreen is still alive at the end of the test`,
/// followed by `; retained by: <path>` for a survivor in a retain cycle.
public final class LeakTracker: @unchecked Sendable {
  private struct Entry {
    let reference: WeakReference
    let site: CallSite
  }

  /// How ``verify()`` waits for tracked objects to go away.
  public let wait: LeakWait
  /// Explains a survivor's retain path for the failure message; `nil` uses
  /// RetainGraph's, ``noRetainPath`` leaves it out.
  public let explain: RetainPathExplainer?

  private let lock = NSLock()
  private var entries: [Entry] = []

  /// The tracker of the running test, set by the ``LeakCheckedTrait/leakChecked`` trait.
  ///
  /// A task-local value, so it belongs to one test and its child tasks only.
  @TaskLocal public static var current: LeakTracker?

  /// Creates an empty tracker.
  public init(wait: LeakWait = .immediately, explain: RetainPathExplainer? = nil) {
    self.wait = wait
    self.explain = explain
  }

  /// Adds `object` to the objects that must be gone when the test ends; held weakly.
  public func track(
    _ object: AnyObject,
    fileID: String = #fileID, filePath: StaticString = #filePath, line: UInt = #line, column: UInt = #column
  ) {
    let entry = Entry(
      reference: WeakReference(object),
      site: CallSite(fileID: fileID, filePath: filePath, line: line, column: column))
    lock.withLock { entries.append(entry) }
  }

  /// How many objects are tracked and not verified yet.
  public var trackedCount: Int { lock.withLock { entries.count } }

  /// Waits as ``wait`` says, then fails the test once per tracked object still
  /// alive, at the line that tracked it; forgets all tracked objects.
  @_disfavoredOverload
  @MainActor
  @discardableResult
  public func verify() -> LeakCheckResult {
    let entries = takeEntries()
    wait.until { entries.allSatisfy(\.reference.isGone) }
    return report(entries, hint: wait.syncFailureHint)
  }

  /// Waits as ``wait`` says, suspending instead of blocking, then fails the
  /// test once per tracked object still alive; forgets all tracked objects.
  @MainActor
  @discardableResult
  public func verify() async -> LeakCheckResult {
    let entries = takeEntries()
    await wait.until { entries.allSatisfy(\.reference.isGone) }
    return report(entries, hint: "")
  }

  private func takeEntries() -> [Entry] {
    lock.withLock {
      defer { entries = [] }
      return entries
    }
  }

  private func report(_ entries: [Entry], hint: String) -> LeakCheckResult {
    let moment = wait.elapsedPhrase.isEmpty ? "at" : "\(wait.elapsedPhrase.dropFirst()) after"
    var failures: [String] = []
    for entry in entries {
      guard let object = entry.reference.object else { continue }
      let message = explained(
        "\(entry.reference.typeName) is still alive \(moment) the end of the test\(hint)",
        object: object, explain: explain)
      recordFailure(message, at: entry.site)
      failures.append(message)
    }
    return LeakCheckResult(failures: failures)
  }
}
