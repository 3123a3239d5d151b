/// Fails the running test unless the object made by `make` deallocates once
/// the test lets go of it.
///
/// The helper calls `make`, hands the object to `use`, drops its own
/// reference, then waits as `wait` says (not at all by default) for the
/// object to go away. If it is still alive, the failure names its type — and
/// the retain path, when `explain` can tell — at the call site, under Swift
/// Testing or XCTest alike.
///
/// ```swift
/// @MainActor @Test func profileScreenDeallocates() {
///   let service = FakeService()
///   assertDeallocation(of: { ProfileScreen(service: service) }) { screen in
///     screen.loadViewIfNeeded()
///     screen.refresh()
///   }
/// }
/// ```
///
/// Failure: `ProfileScreen is still alive after it should have deallocated`.
///
/// - Parameters:
///   - make: builds the object; the helper holds it only while `use` runs.
///   - use: exercises the object (loads it, taps buttons, runs work).
///   - wait: how to wait for the object to go away.
///   - explain: explains a survivor's retain path for the failure message.
/// - Returns: the failures recorded, if any.
@MainActor
@discardableResult
public func assertDeallocation<Object: AnyObject>(
  of make: () throws -> Object,
  using use: (Object) throws -> Void = { _ in },
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
/// Failure: `SettingsScreen is still alive 2.0 s after it was dismissed`.
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
