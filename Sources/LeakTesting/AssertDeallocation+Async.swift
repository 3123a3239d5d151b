/// Fails the running test unless the object made by `make` deallocates; waits
/// by suspending, so real-time waits work on the main actor under Swift Testing.
///
/// The `async` twin of ``assertDeallocation(of:using:wait:explain:fileID:filePath:line:column:)``;
/// `use` may `await`.
///
/// ```swift
/// @MainActor @Test func downloaderDeallocatesOnceItsRequestFinishes() async {
///   await assertDeallocation(of: { Downloader() }, using: { await $0.start() }, wait: .realTime(timeout: .seconds(1)))
/// }
/// ```
@MainActor
@discardableResult
public func assertDeallocation<Object: AnyObject>(
  of make: () throws -> Object,
  using use: (Object) async throws -> Void = { _ in },
  wait: LeakWait = .immediately,
  explain: RetainPathExplainer? = nil,
  fileID: String = #fileID, filePath: StaticString = #filePath, line: UInt = #line, column: UInt = #column
) async rethrows -> LeakCheckResult {
  let probe = try await DeallocationProbe(make: make, use: use, then: { _ in })
  let gone = await wait.until { probe.reference.isGone }
  let result = probe.result(gone: gone, wait: wait, after: "it should have deallocated", explain: explain)
  return record(result, at: CallSite(fileID: fileID, filePath: filePath, line: line, column: column))
}

/// Fails the running test unless the object made by `make` deallocates after
/// it was presented and dismissed; waits by suspending.
///
/// The `async` twin of ``assertDeallocation(of:afterPresenting:dismissing:wait:explain:fileID:filePath:line:column:)``.
///
/// ```swift
/// await assertDeallocation(
///   of: { SettingsScreen() }, afterPresenting: { home.present($0) }, dismissing: { $0.dismiss() },
///   wait: .realTime(timeout: .seconds(1)))
/// ```
@MainActor
@discardableResult
public func assertDeallocation<Object: AnyObject>(
  of make: () throws -> Object,
  afterPresenting present: (Object) async throws -> Void,
  dismissing dismiss: (Object) async throws -> Void,
  wait: LeakWait = .immediately,
  explain: RetainPathExplainer? = nil,
  fileID: String = #fileID, filePath: StaticString = #filePath, line: UInt = #line, column: UInt = #column
) async rethrows -> LeakCheckResult {
  let probe = try await DeallocationProbe(make: make, use: present, then: dismiss)
  let gone = await wait.until { probe.reference.isGone }
  let result = probe.result(gone: gone, wait: wait, after: "it was dismissed", explain: explain)
  return record(result, at: CallSite(fileID: fileID, filePath: filePath, line: line, column: column))
}
