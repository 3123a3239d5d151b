/// Fails the running test unless every part of a module deallocates once its
/// root is released — the "make and expose" module test.
///
/// `makeAndExpose` builds the module and returns its parts: a tuple such as
/// `(screen, presenter, interactor)`, a struct, an array, or just the root.
/// The helper keeps a weak reference to each class instance in it, hands the
/// whole thing to `use`, lets go, waits as `wait` says, and names every part
/// still alive by its label (or position) and type.
///
/// ```swift
/// func makeAndExpose() -> (screen: ProfileScreen, presenter: ProfilePresenter, service: ProfileService) {
///   let service = ProfileService()
///   let presenter = ProfilePresenter(service: service)
///   let screen = ProfileScreen(presenter: presenter)
///   return (screen, presenter, service)
/// }
///
/// @MainActor @Test func profileModuleDeallocates() {
///   assertModuleDeallocates(makeAndExpose, using: { module in
///     module.presenter.load()
///   })
/// }
/// ```
///
/// Failure, one per survivor:
/// ``module part `presenter` (ProfilePresenter) is still alive after the module was released``,
/// followed by `; retained by: <path>` for a part in a retain cycle.
///
/// - Parameters:
///   - makeAndExpose: builds the module and returns its root and parts.
///   - use: exercises the module before it is released.
///   - wait: how to wait for the parts to go away.
///   - explain: explains a survivor's retain path for the failure message;
///     `nil` (the default) uses RetainGraph's, ``noRetainPath`` leaves it out.
/// - Returns: the failures recorded, if any.
@_disfavoredOverload
@MainActor
@discardableResult
public func assertModuleDeallocates<Module>(
  _ makeAndExpose: () throws -> Module,
  using use: (Module) throws -> Void,
  wait: LeakWait = .immediately,
  explain: RetainPathExplainer? = nil,
  fileID: String = #fileID, filePath: StaticString = #filePath, line: UInt = #line, column: UInt = #column
) rethrows -> LeakCheckResult {
  let parts = try exposeAndRelease(makeAndExpose, use)
  wait.until { parts.allGone }
  let result = LeakCheckResult(
    failures: parts.failures(wait: wait, hint: wait.syncFailureHint, explain: explain))
  return record(result, at: CallSite(fileID: fileID, filePath: filePath, line: line, column: column))
}

/// Fails the running test unless every part of a module deallocates once its
/// root is released; waits by suspending.
///
/// The `async` twin of ``assertModuleDeallocates(_:using:wait:explain:fileID:filePath:line:column:)``.
///
/// ```swift
/// await assertModuleDeallocates(makeAndExpose, using: { await $0.presenter.load() }, wait: .realTime())
/// ```
@MainActor
@discardableResult
public func assertModuleDeallocates<Module>(
  _ makeAndExpose: () throws -> Module,
  using use: (Module) async throws -> Void,
  wait: LeakWait = .immediately,
  explain: RetainPathExplainer? = nil,
  fileID: String = #fileID, filePath: StaticString = #filePath, line: UInt = #line, column: UInt = #column
) async rethrows -> LeakCheckResult {
  let parts = try await exposeAndRelease(makeAndExpose, use)
  await wait.until { parts.allGone }
  let result = LeakCheckResult(failures: parts.failures(wait: wait, hint: "", explain: explain))
  return record(result, at: CallSite(fileID: fileID, filePath: filePath, line: line, column: column))
}

/// Fails the running test unless every part of the module made by
/// `makeAndExpose` deallocates once it is released.
///
/// ```swift
/// @MainActor @Test func profileModuleDeallocates() {
///   assertModuleDeallocates(makeAndExpose)
/// }
/// ```
@_disfavoredOverload
@MainActor
@discardableResult
public func assertModuleDeallocates<Module>(
  _ makeAndExpose: () throws -> Module,
  wait: LeakWait = .immediately,
  explain: RetainPathExplainer? = nil,
  fileID: String = #fileID, filePath: StaticString = #filePath, line: UInt = #line, column: UInt = #column
) rethrows -> LeakCheckResult {
  try assertModuleDeallocates(
    makeAndExpose, using: { _ in }, wait: wait, explain: explain,
    fileID: fileID, filePath: filePath, line: line, column: column)
}

/// Fails the running test unless every part of the module made by
/// `makeAndExpose` deallocates once it is released; waits by suspending.
///
/// ```swift
/// await assertModuleDeallocates(makeAndExpose, wait: .realTime(timeout: .seconds(1)))
/// ```
@MainActor
@discardableResult
public func assertModuleDeallocates<Module>(
  _ makeAndExpose: () throws -> Module,
  wait: LeakWait = .immediately,
  explain: RetainPathExplainer? = nil,
  fileID: String = #fileID, filePath: StaticString = #filePath, line: UInt = #line, column: UInt = #column
) async rethrows -> LeakCheckResult {
  try await assertModuleDeallocates(
    makeAndExpose, using: { _ in }, wait: wait, explain: explain,
    fileID: fileID, filePath: filePath, line: line, column: column)
}

/// Builds the module, notes its parts, uses it, and lets go of it.
@MainActor
private func exposeAndRelease<Module>(
  _ make: () throws -> Module, _ use: (Module) throws -> Void
) rethrows -> ModuleParts {
  let module = try make()
  let parts = ModuleParts(module)
  try use(module)
  return parts
}

@MainActor
private func exposeAndRelease<Module>(
  _ make: () throws -> Module, _ use: (Module) async throws -> Void
) async rethrows -> ModuleParts {
  let module = try make()
  let parts = ModuleParts(module)
  try await use(module)
  return parts
}
