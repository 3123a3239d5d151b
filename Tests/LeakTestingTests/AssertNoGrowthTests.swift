import LeakLabTestSupport
import LeakTesting
import Testing

/// A request handler that keeps a record of every request in a global
/// list, or (fixed) only the last three.
final class AuditedHandler {
  final class Record {
    let number: Int
    init(number: Int) { self.number = number }
  }

  nonisolated(unsafe) static var trail: [Record] = []
  let keepsEverything: Bool
  private var handled = 0

  init(keepsEverything: Bool) { self.keepsEverything = keepsEverything }

  func handle() {
    handled += 1
    Self.trail.append(Record(number: handled))
    if !keepsEverything, Self.trail.count > 3 { Self.trail.removeFirst(Self.trail.count - 3) }
  }
}

/// The growth check, as a function and as a trait: it names the type that
/// grew, the growth per iteration and the global that keeps the new ones.
///
/// In a process of its own: every class of the process counts by default,
/// and other tests' objects must not come and go beside the check's.
@MainActor @Suite(.serialized, .memoryViewSupported, .inProcessOfItsOwn("AssertNoGrowthTests"))
struct AssertNoGrowthTests {
  static let recordPath = "global static AuditedHandler.trail in LeakLabPackageTests.xctest"

  /// The index of the array element a path ends at: `… → [11]: Record` is 11.
  static func elementIndex(_ path: String?) -> Int? {
    guard let path, let open = path.lastIndex(of: "["), let close = path.lastIndex(of: "]") else {
      return nil
    }
    return Int(path[path.index(after: open)..<close])
  }

  /// Runs `body`, expecting exactly one issue whose message starts with `prefix`.
  static func expectOneIssue(
    startingWith prefix: String, sourceLocation: SourceLocation = #_sourceLocation, _ body: () async -> Void
  ) async {
    let recorded = RecordedIssues()
    await withKnownIssue(sourceLocation: sourceLocation) {
      await body()
    } matching: { issue in
      recorded.append(issue)
      return issue.comments.map(\.rawValue).joined().hasPrefix(prefix)
    }
    #expect(recorded.messages.count == 1, "\(recorded.messages)", sourceLocation: sourceLocation)
  }

  @Test func aTypeThatGainsAnInstanceEveryIterationFailsWithItsGrowthAndItsPath() async {
    AuditedHandler.trail = []
    let handler = AuditedHandler(keepsEverything: true)
    var result: GrowthCheckResult?
    await Self.expectOneIssue(
      startingWith:
        "Record grew by 1.0 per iteration (2 → 12 after 10 iterations); kept by: \(Self.recordPath)"
        + " → Array<AnyObject> storage → ["
    ) {
      result = assertNoGrowth(iterations: 10, warmUp: 2) { handler.handle() }
    }
    let growth = result?.growths.first
    #expect(result?.growths.count == 1)
    #expect(growth?.qualifiedName == "LeakTestingTests.AuditedHandler.Record")
    #expect(growth?.perIteration == 1)
    #expect(growth?.path?.hasSuffix("]: Record") == true)
    // One of the ten new records: the warm-up's two are [0] and [1].
    #expect((2...11).contains(Self.elementIndex(growth?.path) ?? -1), "\(growth?.path ?? "")")
    AuditedHandler.trail = []
  }

  @Test func aTypeThatStaysBoundedPasses() {
    AuditedHandler.trail = []
    let handler = AuditedHandler(keepsEverything: false)
    let result = expectIssues([]) {
      _ = assertNoGrowth(iterations: 10) { handler.handle() }
    }
    #expect(result.messages.isEmpty)
    #expect(AuditedHandler.trail.count == 3)
    AuditedHandler.trail = []
  }

  @Test func onlyTheNamedTypesAreWatched() {
    AuditedHandler.trail = []
    let handler = AuditedHandler(keepsEverything: true)
    let result = assertNoGrowth(iterations: 5, of: [AuditedHandler.self]) { handler.handle() }
    #expect(result.passed)
    AuditedHandler.trail = []
  }

  @Test func theAsyncFormChecksTheSameWay() async {
    AuditedHandler.trail = []
    let handler = AuditedHandler(keepsEverything: true)
    var result: GrowthCheckResult?
    await Self.expectOneIssue(
      startingWith: "Record grew by 2.0 per iteration (0 → 8 after 4 iterations); kept by: \(Self.recordPath)"
    ) {
      result = await assertNoGrowth(iterations: 4, warmUp: 0, of: [AuditedHandler.Record.self]) {
        await Task.yield()
        handler.handle()
        handler.handle()
      }
    }
    #expect(result?.growths.first?.after == 8)
    #expect((0...7).contains(Self.elementIndex(result?.growths.first?.path) ?? -1))
    AuditedHandler.trail = []
  }
}

/// The trait form: the test's body is one iteration.
@Suite(.serialized, .memoryViewSupported, .inProcessOfItsOwn("GrowthCheckedTraitTests"))
struct GrowthCheckedTraitTests {
  nonisolated(unsafe) static let handler = AuditedHandler(keepsEverything: false)

  @Test(.noGrowth(iterations: 8)) func aBoundedTrailPassesTheTrait() {
    Self.handler.handle()
    #expect(AuditedHandler.trail.count <= 3)
  }
}

@Test(.memoryViewSupported, .runsSuitesAlone) func growthChecksPassInAProcessOfTheirOwn() throws {
  try ProcessOfItsOwn.expectPasses("LeakTestingTests.AssertNoGrowthTests")
  try ProcessOfItsOwn.expectPasses("LeakTestingTests.GrowthCheckedTraitTests")
}
