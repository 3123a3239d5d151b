import HeapModel
import MemoryView

/// Runs `body` again and again and fails the running test when the live
/// count of a type grows with the iterations: memory kept for good with
/// no cycle to find — a cache keyed by request, an observer list nobody
/// trims, an audit trail in a global — named by type, with the growth per
/// iteration and the path from a root that keeps one of the new instances.
///
/// `body` runs `warmUp` times first (lazy statics, caches that fill once),
/// then a census of the process's live objects is taken (a frozen copy of
/// it, see ``HeapCensus``), then `body` runs `iterations` times and a
/// second census is taken. A type fails when it gained at least one live
/// instance per iteration. Every Swift class counts unless `types` names
/// some; the standard library's, Foundation's, the test frameworks' and
/// LeakLab's own never do. Works under XCTest and Swift Testing alike.
///
/// ```swift
/// @Test func handlingARequestKeepsNothing() {
///   let server = AuditServer()
///   assertNoGrowth(iterations: 20) {
///     server.handle(Request(path: "/"))
///   }
/// }
/// // AuditRecord grew by 1.0 per iteration (3 → 23 after 20 iterations); kept by:
/// // global auditTrail in MyServer → Array<AnyObject> storage → [22]: AuditRecord
/// ```
///
/// Other tests running at the same time allocate in the same process: run
/// growth checks in a `.serialized` suite, or name the `types` to watch.
@discardableResult
public func assertNoGrowth(
  iterations: Int = 10, warmUp: Int = 2, of types: [Any.Type] = [],
  fileID: String = #fileID, filePath: StaticString = #filePath, line: UInt = #line, column: UInt = #column,
  _ body: () throws -> Void
) rethrows -> GrowthCheckResult {
  let check = GrowthCheck(iterations: iterations, types: types.map { String(reflecting: $0) })
  for _ in 0..<max(0, warmUp) { try body() }
  let before = check.before()
  for _ in 0..<max(1, iterations) { try body() }
  let result = check.after(before)
  let site = CallSite(fileID: fileID, filePath: filePath, line: line, column: column)
  for message in result.failures { recordFailure(message, at: site) }
  return result
}

/// The `async` twin of ``assertNoGrowth(iterations:warmUp:of:fileID:filePath:line:column:_:)``,
/// run on the caller's actor.
@discardableResult
public func assertNoGrowth(
  iterations: Int = 10, warmUp: Int = 2, of types: [Any.Type] = [],
  fileID: String = #fileID, filePath: StaticString = #filePath, line: UInt = #line, column: UInt = #column,
  isolation: isolated (any Actor)? = #isolation, _ body: () async throws -> Void
) async rethrows -> GrowthCheckResult {
  let check = GrowthCheck(iterations: iterations, types: types.map { String(reflecting: $0) })
  for _ in 0..<max(0, warmUp) { try await body() }
  let before = check.before()
  for _ in 0..<max(1, iterations) { try await body() }
  let result = check.after(before)
  let site = CallSite(fileID: fileID, filePath: filePath, line: line, column: column)
  for message in result.failures { recordFailure(message, at: site) }
  return result
}

/// What a growth check found: each type that grew with the iterations,
/// and one failure message per type.
public struct GrowthCheckResult: Sendable, Equatable, CustomStringConvertible {
  /// One type that gained at least one live instance per iteration.
  public struct Growth: Sendable, Equatable {
    /// `AuditRecord`.
    public var typeName: String
    /// `MyServer.AuditRecord`.
    public var qualifiedName: String?
    /// Live instances before and after the iterations.
    public var before: Int
    public var after: Int
    /// Instances gained per iteration.
    public var perIteration: Double
    /// Why one new instance is kept: `global auditTrail in MyServer → … → [22]: AuditRecord`.
    public var path: String?
  }

  /// The types that grew, the largest growth first.
  public var growths: [Growth]
  /// The failure messages (one per type that grew, or why no census could be taken).
  public var failures: [String]

  /// Whether nothing grew with the iterations.
  public var passed: Bool { failures.isEmpty }

  public var description: String { passed ? "passed" : failures.joined(separator: "\n") }
}

/// Takes the two censuses of a growth check and compares them.
struct GrowthCheck {
  let iterations: Int
  /// Qualified names of the types to watch (all but the excluded modules' when empty).
  let types: Set<String>

  init(iterations: Int, types: [String]) {
    self.iterations = max(1, iterations)
    self.types = Set(types)
  }

  /// Modules whose types a growth check never counts: the runtime, the
  /// frameworks a test runs in, and LeakLab's own (the check's own objects).
  static let ignoredModules: Set<String> = [
    "Swift", "_Concurrency", "_StringProcessing", "Synchronization", "Foundation", "FoundationEssentials",
    "FoundationInternationalization", "Dispatch", "XCTest", "Testing", "LeakTesting", "HeapModel",
    "MemoryView",
    "RetainGraph", "RetainGraphDrawing", "GraphLayout", "LeakDetector", "LeakClock",
  ]

  /// The census before the iterations, or why none could be taken.
  func before() -> Result<HeapCensus, CensusFailure> {
    census(scope: .types).map { $0.census }
  }

  /// Compares a census taken now with `before`.
  func after(_ before: Result<HeapCensus, CensusFailure>) -> GrowthCheckResult {
    let earlier: HeapCensus
    let now: (model: HeapModel, census: HeapCensus)
    do {
      earlier = try before.get()
      now = try census(scope: .full).get()
    } catch {
      return GrowthCheckResult(
        growths: [], failures: ["no growth check: cannot take a census of this process (\(error.reason))"])
    }
    let diff = CensusDiff(from: earlier, to: now.census)
    var growths: [GrowthCheckResult.Growth] = []
    for change in diff.grown where counts(change) && change.growth >= iterations {
      var path: String?
      if let entry = now.census.entry(key: change.key) {
        let since = earlier.entry(key: change.key)?.instances ?? InstanceAddresses()
        path = now.model.growthPath(toNewInstanceOf: entry, since: since)?.text
      }
      growths.append(
        GrowthCheckResult.Growth(
          typeName: change.name, qualifiedName: change.qualifiedName, before: change.oldCount,
          after: change.newCount, perIteration: Double(change.growth) / Double(iterations), path: path))
    }
    return GrowthCheckResult(growths: growths, failures: growths.map(message))
  }

  /// Whether a changed type is one this check watches.
  private func counts(_ change: CensusDiff.Change) -> Bool {
    guard change.kind == .object else { return false }
    if !types.isEmpty { return change.qualifiedName.map(types.contains) ?? false }
    return change.module.map { !Self.ignoredModules.contains($0) } ?? false
  }

  /// `AuditRecord grew by 1.0 per iteration (3 → 23 after 20 iterations); kept by: …`.
  func message(_ growth: GrowthCheckResult.Growth) -> String {
    let rate = (growth.perIteration * 10).rounded() / 10
    let text =
      "\(growth.typeName) grew by \(rate) per iteration "
      + "(\(growth.before) → \(growth.after) after \(iterations) iteration\(iterations == 1 ? "" : "s"))"
    return growth.path.map { "\(text); kept by: \($0)" } ?? text
  }

  struct CensusFailure: Error {
    var reason: String
  }

  /// A census of a frozen copy of this process, and its model.
  private func census(scope: HeapModel.Scope) -> Result<(model: HeapModel, census: HeapCensus), CensusFailure>
  {
    if let reason = ProcessSnapshot.ownHeapUnsupportedReason {
      return .failure(CensusFailure(reason: reason))
    }
    do {
      let model = try HeapModel(snapshot: try ProcessSnapshot.ofFrozenCopy(), scope: scope)
      return .success((model, model.census()))
    } catch let error as ProcessSnapshot.Failure {
      return .failure(CensusFailure(reason: error.description))
    } catch let error as HeapModelError {
      return .failure(CensusFailure(reason: error.description))
    } catch {
      return .failure(CensusFailure(reason: "\(error)"))
    }
  }
}
