import ProcessLeaks
import Testing

@Suite struct SuppressionsTests {
  /// Foundation's Timer ↔ its CF timer, the timer's block context, and the
  /// app's poller the block captured.
  static let timerLeak = LeakGraph(
    blocks: [
      LeakReportTests.block(0x1000, "Timer", module: "Foundation"),
      LeakReportTests.block(0x2000, "__NSCFType", module: "Foundation", size: 176),
      LeakReportTests.block(0x3000, "closure context"),
      LeakReportTests.block(0x4000, "Poller", module: "App"),
    ],
    edges: [
      LeakEdge(from: 0, to: 1, label: "_timerStorage", strength: .strong),
      LeakEdge(from: 1, to: 0, label: "word 18", strength: .strong, isConservative: true),
      LeakEdge(from: 0, to: 2, label: "_block", strength: .strong),
      LeakEdge(from: 2, to: 3, label: "captures", strength: .strong),
    ])

  @Test func aLibraryLeakTakesItsLibrarysObjectsButNotYours() throws {
    let report = LeakReport(graph: Self.timerLeak, suppressions: .libraryDefaults)
    #expect(report.graph.blocks.map(\.typeName) == ["Poller"])
    #expect(report.suppressed.map(\.blocks) == [3])
    #expect(report.suppressed.first?.pattern == "Foundation.Timer")
    #expect(report.suppressed.first?.reason?.hasPrefix("swift-corelibs-foundation retains") == true)
    #expect(report.summary == "1 leaked object, 32 bytes, 0 retain cycles (3 suppressed)")
  }

  @Test func withoutSuppressionsTheLibraryCycleIsReported() {
    let report = LeakReport(graph: Self.timerLeak)
    #expect(report.cycles.count == 1)
    #expect(report.leakedBlocks == 4)
  }

  @Test func aTreeRuleTakesEverythingTheMatchedBlockHolds() {
    let suppressions = Suppressions(rules: [.init(pattern: "Foundation.Timer", takesWholeTree: true)])
    let report = LeakReport(graph: Self.timerLeak, suppressions: suppressions)
    #expect(report.graph.blocks.isEmpty)
    #expect(report.suppressed.map(\.blocks) == [4])
  }

  @Test func patternsMatchPlainOrQualifiedNamesWithWildcards() {
    let timer = LeakReportTests.block(0x1000, "Timer", module: "Foundation")
    #expect(Suppressions.Rule(pattern: "Timer").matches(timer))
    #expect(Suppressions.Rule(pattern: "Foundation.*").matches(timer))
    #expect(Suppressions.Rule(pattern: "*Tim?r").matches(timer))
    #expect(!Suppressions.Rule(pattern: "App.*").matches(timer))
    #expect(!Suppressions.Rule(pattern: "Time").matches(timer))
  }

  @Test func theFileFormatKeepsTheCommentsAboveAGroupOfRulesAsTheirReason() throws {
    let suppressions = try Suppressions.parse(
      """
      # unrelated note

      # the vendor SDK caches its session forever
      type Vendor.Session

      tree *Cache
      """, file: "app.supp")
    #expect(
      suppressions.rules == [
        .init(pattern: "Vendor.Session", reason: "the vendor SDK caches its session forever"),
        .init(pattern: "*Cache", takesWholeTree: true),
      ])
  }

  @Test func aMalformedLineIsAnErrorWithFileAndLine() {
    #expect(
      throws: Suppressions.ParseError(
        description: "app.supp:2: unknown rule \"leak\" (expected: type PATTERN or tree PATTERN)")
    ) {
      try Suppressions.parse("# ok\nleak Foo\n", file: "app.supp")
    }
    #expect(
      throws: Suppressions.ParseError(description: "app.supp:1: expected one type pattern after \"type\"")
    ) {
      try Suppressions.parse("type\n", file: "app.supp")
    }
  }
}
