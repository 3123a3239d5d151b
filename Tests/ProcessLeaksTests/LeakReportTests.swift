import ProcessLeaks
import Testing

/// Leak graphs built by hand: what the report makes of them.
@Suite struct LeakReportTests {
  static func block(_ address: UInt, _ type: String, module: String = "App", size: Int = 32) -> LeakedBlock {
    let kind: LeakedBlock.Kind =
      switch type {
      case "closure context": .closureContext
      case "malloc block": .mallocBlock
      default: .object
      }
    return LeakedBlock(
      address: address, size: size, kind: kind, typeName: type,
      qualifiedTypeName: kind == .object ? "\(module).\(type)" : nil)
  }

  /// FeedService → completion (closure capturing the use case) → LoadFeedUseCase → service → FeedService.
  static let feedCycle = LeakGraph(
    blocks: [block(0x1000, "FeedService", size: 48), block(0x2000, "LoadFeedUseCase")],
    edges: [
      LeakEdge(
        from: 0, to: 1, label: "completion", strength: .strong, closure: "closure in LoadFeedUseCase.start()"),
      LeakEdge(from: 1, to: 0, label: "service", strength: .strong),
    ])

  @Test func aTwoObjectCycleIsOneRetainCycleShownFromItsFirstObject() {
    let report = LeakReport(graph: Self.feedCycle)
    #expect(report.summary == "2 leaked objects, 80 bytes, 1 retain cycle")
    #expect(
      report.textLines() == [
        "2 leaked objects, 80 bytes, 1 retain cycle",
        "",
        "ROOT CYCLE: <FeedService 0x1000 48 B>",
        "   completion: closure in LoadFeedUseCase.start() → captures <LoadFeedUseCase 0x2000 32 B>",
        "      service: CYCLE BACK TO <FeedService 0x1000 48 B>",
      ])
  }

  @Test func weakBackReferencesDoNotMakeACycle() {
    var graph = Self.feedCycle
    graph.edges[1].strength = .weak
    let report = LeakReport(graph: graph)
    #expect(report.cycles.isEmpty)
    #expect(
      report.textLines() == [
        "2 leaked objects, 80 bytes, 0 retain cycles",
        "",
        "ROOT LEAK: <FeedService 0x1000 48 B>",
        "   completion: closure in LoadFeedUseCase.start() → captures <LoadFeedUseCase 0x2000 32 B>",
        "      service (weak): <FeedService 0x1000 48 B>",
      ])
  }

  @Test func blocksOutsideAnyTreeAreGroupedByTypeLargestFirst() {
    let graph = LeakGraph(
      blocks: [
        Self.block(0x1000, "malloc block", size: 16), Self.block(0x2000, "Token"),
        Self.block(0x3000, "malloc block", size: 24),
      ],
      edges: [])
    #expect(
      LeakReport(graph: graph).textLines() == [
        "3 leaked objects, 72 bytes, 0 retain cycles",
        "",
        "Leaked, by type:",
        "   2 × malloc block  40 B",
        "   1 × Token         32 B",
      ])
  }

  @Test func aLongChainIsCutAtTheLineLimitAndTheRestCounted() {
    let count = 100
    let graph = LeakGraph(
      blocks: (0..<count).map { Self.block(UInt(0x1000 * ($0 + 1)), "Node") },
      edges: (0..<count - 1).map { LeakEdge(from: $0, to: $0 + 1, label: "next", strength: .strong) })
    let lines = LeakReport(graph: graph).textLines(limits: .init(linesPerTree: 10, depth: 100))
    #expect(lines.contains("   … 89 more blocks held from here (listed by type below)"))
    #expect(lines.last == "   89 × Node  2848 B")
  }

  @Test func cyclesAreFoundInAVeryLongChainWithoutExhaustingTheStack() {
    let count = 200_000
    var edges = (0..<count - 1).map { LeakEdge(from: $0, to: $0 + 1, label: "next", strength: .strong) }
    edges.append(LeakEdge(from: count - 1, to: 0, label: "next", strength: .strong))
    let graph = LeakGraph(blocks: (0..<count).map { Self.block(UInt($0 + 1) * 64, "Node") }, edges: edges)
    let report = LeakReport(graph: graph)
    #expect(report.cycles.count == 1)
    #expect(report.cycles.first?.members.count == count)
  }
}
