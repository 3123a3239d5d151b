// The `async` twins of the helpers in AssertDeallocation.swift. They wait by
// suspending, so a real-time wait lets main-queue work run even on the main
// actor under Swift Testing. In an `async` context they are the ones chosen:
// the synchronous ones are disfavored.

/// Fails the running test unless the object made by `make` deallocates;
/// waits by suspending.
///
/// ```swift
/// @MainActor @Test func uploaderDeallocatesOnceItsWorkFinishes() async {
///   await assertDeallocation(of: { Uploader() }, wait: .realTime(timeout: .seconds(1)))
/// }
/// ```
@MainActor
@discardableResult
public func assertDeallocation<Object: AnyObject>(
  of make: () throws -> Object,
  wait: LeakWait = .immediately,
  explain: RetainPathExplainer? = nil,
  fileID: String = #fileID, filePath: StaticString = #filePath, line: UInt = #line, column: UInt = #column
) async rethrows -> LeakCheckResult {
  try await assertDeallocation(
    of: make, using: { _ in }, wait: wait, explain: explain,
    fileID: fileID, filePath: filePath, line: line, column: column)
}

/// Fails the running test unless the object made by `make` deallocates once
/// `use` is done with it; `use` may `await`, and the helper waits by suspending.
///
/// ```swift
/// @MainActor @Test func downloaderDeallocatesAfterADownload() async {
///   await assertDeallocation(of: { Downloader() }, using: { await $0.start() }, wait: .realTime())
/// }
/// ```
@MainActor
@discardableResult
public func assertDeallocation<Object: AnyObject>(
  of make: () throws -> Object,
  using use: (Object) async throws -> Void,
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
