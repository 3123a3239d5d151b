/// Fails the running test unless the object made by `make` deallocates once
/// the test lets go of it.
///
/// The helper calls `make`, drops its reference, then waits as `wait` says
/// (not at all by default) for the object to go away. If it is still alive,
/// the failure names its type — and the retain path, when `explain` (by
/// default RetainGraph's) can tell — at the call site, under Swift Testing or
/// XCTest alike.
///
/// ```swift
/// @MainActor @Test func profileScreenDeallocates() {
///   assertDeallocation(of: { ProfileScreen(service: FakeService()) })
/// }
/// ```
///
/// Failure: `ProfileScreen is still alive after it should have deallocated`,
/// followed by `; retained by: <path>` when the object is in a retain cycle.
///
/// - Parameters:
///   - make: builds the object.
///   - wait: how to wait for the object to go away.
///   - explain: explains a survivor's retain path for the failure message;
///     `nil` (the default) uses RetainGraph's, ``noRetainPath`` leaves it out.
/// - Returns: the failures recorded, if any.
@_disfavoredOverload
@MainActor
@discardableResult
public func assertDeallocation<Object: AnyObject>(
  of make: () throws -> Object,
  wait: LeakWait = .immediately,
  explain: RetainPathExplainer? = nil,
  fileID: String = #fileID, filePath: StaticString = #filePath, line: UInt = #line, column: UInt = #column
) rethrows -> LeakCheckResult {
  try assertDeallocation(
    of: make, using: { _ in }, wait: wait, explain: explain,
    fileID: fileID, filePath: filePath, line: line, column: column)
}

/// Fails the running test unless the object made by `make` deallocates once
/// `use` is done with it.
///
/// The helper holds the object only while `use` runs.
///
/// ```swift
/// @MainActor @Test func profileScreenDeallocatesAfterARefresh() {
///   assertDeallocation(of: { ProfileScreen(service: FakeService()) }) { screen in
///     screen.refresh()
///   }
/// }
/// ```
///
/// Failure, if `refresh()` left a closure capturing the screen:
/// `ProfileScreen is still alive after it should have deallocated; retained by: retain cycle:
/// ProfileScreen → onRefresh: closure in ProfileScreen.refresh() → captures ProfileScreen (strong)`.
@_disfavoredOverload
@MainActor
@discardableResult
public func assertDeallocation<Object: AnyObject>(
  of make: () throws -> Object,
  using use: (Object) throws -> Void,
  wait: LeakWait = .immediately,
  explain: RetainPathExplainer? = nil,
  fileID: String = #fileID, filePath: StaticString = #filePath, line: UInt = #line, column: UInt = #column
) rethrows -> LeakCheckResult {
  let probe = try DeallocationProbe(make: make, use: use, then: { _ in })
  let gone = wait.until { probe.reference.isGone }
  let result = probe.result(
    gone: gone, wait: wait, after: "it should have deallocated", hint: wait.syncFailureHint,
    explain: explain)
  return record(result, at: CallSite(fileID: fileID, filePath: filePath, line: line, column: column))
}

/// Fails the running test unless the object made by `make` deallocates after
/// it was presented and dismissed.
///
/// Presenting and dismissing are closures, so this works for any objects: a
/// ScreenKit screen presented on a window, a coordinator started and stopped,
/// a view added and removed.
///
/// ```swift
/// @MainActor @Test func settingsDeallocatesAfterDismiss() {
///   let scheduler = ManualScheduler()
///   let home = Screen(title: "Home")
///   let window = Window()
///   window.rootScreen = home
///   assertDeallocation(
///     of: { SettingsScreen(scheduler: scheduler) },
///     afterPresenting: { home.present($0) },
///     dismissing: { $0.dismiss() },
///     wait: .manual(scheduler, timeout: .seconds(2)))
/// }
/// ```
///
/// Failure: `SettingsScreen is still alive 2.0 s after it was dismissed`, plus
/// `; retained by: <path>` when it is in a retain cycle.
@_disfavoredOverload
@MainActor
@discardableResult
public func assertDeallocation<Object: AnyObject>(
  of make: () throws -> Object,
  afterPresenting present: (Object) throws -> Void,
  dismissing dismiss: (Object) throws -> Void,
  wait: LeakWait = .immediately,
  explain: RetainPathExplainer? = nil,
  fileID: String = #fileID, filePath: StaticString = #filePath, line: UInt = #line, column: UInt = #column
) rethrows -> LeakCheckResult {
  let probe = try DeallocationProbe(make: make, use: present, then: dismiss)
  let gone = wait.until { probe.reference.isGone }
  let result = probe.result(
    gone: gone, wait: wait, after: "it was dismissed", hint: wait.syncFailureHint, explain: explain)
  return record(result, at: CallSite(fileID: fileID, filePath: filePath, line: line, column: column))
}
