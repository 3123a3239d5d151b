import Foundation
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

  static let cycleID = LeakKind.id(of: "FeedService ⇄ LoadFeedUseCase (completion, service)")

  @Test func aTwoObjectCycleIsOneRetainCycleShownFromItsFirstObject() {
    let report = LeakReport(graph: Self.feedCycle)
    #expect(report.summary == "2 leaked objects, 80 bytes, 1 retain cycle")
    #expect(
      report.textLines() == [
        "2 leaked objects, 80 bytes, 1 retain cycle",
        "   1 × FeedService ⇄ LoadFeedUseCase (completion, service)  [\(Self.cycleID)]",
        "",
        "KIND \(Self.cycleID): 1 × FeedService ⇄ LoadFeedUseCase (completion, service), 2 blocks, 80 B",
        "   pattern: a stored closure capturing its owner (catalogue closure-capture, lint rule stored-closure)",
        "   look at: FeedService.completion, the reference to break (◀ suspect below); every block on the cycle is expected gone",
        "ROOT CYCLE: <FeedService 0x1000 48 B>",
        "   completion: closure in LoadFeedUseCase.start() → captures <LoadFeedUseCase 0x2000 32 B>   ◀ suspect",
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
        "   1 × FeedService  [\(LeakKind.id(of: "FeedService"))]",
        "",
        "KIND \(LeakKind.id(of: "FeedService")): 1 × FeedService, 2 blocks, 80 B",
        "ROOT LEAK: <FeedService 0x1000 48 B>",
        "   completion: closure in LoadFeedUseCase.start() → captures <LoadFeedUseCase 0x2000 32 B>",
        "      service (weak): <FeedService 0x1000 48 B>",
      ])
  }

  @Test func blocksThatHoldNothingAreOneKindPerTypeTheMostFirst() {
    let graph = LeakGraph(
      blocks: [
        Self.block(0x1000, "malloc block", size: 16), Self.block(0x2000, "Token"),
        Self.block(0x3000, "malloc block", size: 24),
      ],
      edges: [])
    let malloc = LeakKind.id(of: "malloc block")
    let token = LeakKind.id(of: "Token")
    #expect(
      LeakReport(graph: graph).textLines() == [
        "3 leaked objects, 72 bytes, 0 retain cycles",
        "   2 × malloc block  [\(malloc)]",
        "   1 × Token  [\(token)]",
        "",
        "KIND \(malloc): 2 × malloc block, 2 blocks, 40 B",
        "ROOT LEAK: <malloc block 0x1000 16 B>",
        "",
        "KIND \(token): 1 × Token, 1 block, 32 B",
        "ROOT LEAK: <Token 0x2000 32 B>",
      ])
  }

  @Test func aLongChainIsCutAtTheLineLimitAndTheRestCounted() {
    let count = 100
    let graph = LeakGraph(
      blocks: (0..<count).map { Self.block(UInt(0x1000 * ($0 + 1)), "Node") },
      edges: (0..<count - 1).map { LeakEdge(from: $0, to: $0 + 1, label: "next", strength: .strong) })
    let lines = LeakReport(graph: graph).textLines(limits: .init(linesPerTree: 10, depth: 100))
    #expect(lines.contains("   … 89 more blocks held from here, by type:"))
    #expect(lines.last == "      89 × Node  2848 B")
  }

  @Test func cyclesAreFoundInAVeryLongChainWithoutExhaustingTheStack() {
    let count = 200_000
    var edges = (0..<count - 1).map { LeakEdge(from: $0, to: $0 + 1, label: "next", strength: .strong) }
    edges.append(LeakEdge(from: count - 1, to: 0, label: "next", strength: .strong))
    let graph = LeakGraph(blocks: (0..<count).map { Self.block(UInt($0 + 1) * 64, "Node") }, edges: edges)
    let report = LeakReport(graph: graph)
    #expect(report.cycles.count == 1)
    #expect(report.cycles.first?.members.count == count)
    #expect(
      report.kinds.map(\.signature) == [
        "Node → Node → Node → Node → Node → Node → Node → Node → … 199992 more → Node "
          + "(next, next, next, next, next, next, next, next, …)"
      ])
  }
}

/// Leak kinds: one line per kind of leak, counted, the same whatever the
/// addresses, sizes and what hangs below; baselines that fail on new kinds only.
@Suite struct LeakKindTests {
  static func block(_ address: UInt, _ type: String, module: String = "App", size: Int = 32) -> LeakedBlock {
    var block = LeakReportTests.block(address, type, module: module, size: size)
    block.isProgramType = module == "App"
    return block
  }

  /// `count` handler ⇄ context cycles (the context a library's type, at a
  /// lower address), each holding a string of a different size and as many
  /// buffers as its number.
  static func handlerLeaks(_ count: Int) -> LeakGraph {
    var blocks: [LeakedBlock] = []
    var edges: [LeakEdge] = []
    for leak in 0..<count {
      let base = UInt(0x10_0000 * (leak + 1))
      let context = blocks.count
      blocks.append(block(base, "ChannelHandlerContext", module: "NIOCore", size: 96))
      let handler = blocks.count
      blocks.append(block(base + 0x100, "SessionHandler", size: 48))
      let name = blocks.count
      blocks.append(block(base + 0x200, "String storage", module: "Swift", size: 40 + 16 * leak))
      edges += [
        LeakEdge(from: context, to: handler, label: "handler", strength: .strong),
        LeakEdge(from: handler, to: context, label: "context", strength: .strong),
        LeakEdge(from: handler, to: name, label: "name", strength: .strong),
      ]
      for buffer in 0..<leak {
        edges.append(
          LeakEdge(from: handler, to: blocks.count, label: "buffers[\(buffer)]", strength: .strong))
        blocks.append(block(base + 0x300 + UInt(buffer) * 0x100, "malloc block", size: 64))
      }
    }
    return LeakGraph(blocks: blocks, edges: edges)
  }

  static let handlerSignature = "SessionHandler ⇄ ChannelHandlerContext (context, handler)"

  @Test func identicalLeaksWhoseSubtreesDifferInSizesAreOneKindFromTheProgramsType() {
    let report = LeakReport(graph: Self.handlerLeaks(3))
    let id = LeakKind.id(of: Self.handlerSignature)
    #expect(report.kinds.map(\.line) == ["3 × \(Self.handlerSignature)  [\(id)]"])
    #expect(report.kinds.first?.blocks == 12)
    let lines = report.textLines()
    #expect(lines[1] == "   3 × \(Self.handlerSignature)  [\(id)]")
    #expect(lines.filter { $0.hasPrefix("ROOT CYCLE: ") } == ["ROOT CYCLE: <SessionHandler 0x100100 48 B>"])
  }

  @Test func twoKindsMixedAreTwoLinesTheMostLeaksFirst() {
    var graph = Self.handlerLeaks(2)
    let cache = graph.blocks.count
    graph.blocks.append(Self.block(0x5, "Cache"))
    graph.edges.append(LeakEdge(from: cache, to: cache, label: "entries", strength: .strong))
    let lone = graph.blocks.count
    graph.blocks.append(Self.block(0x6, "Token"))
    let report = LeakReport(graph: graph)
    #expect(
      report.kinds.map { "\($0.count) × \($0.signature)" } == [
        "2 × \(Self.handlerSignature)", "1 × Cache ↻ (entries)", "1 × Token",
      ])
    #expect(report.kindOfBlock[cache] == 1)
    #expect(report.kindOfBlock[lone] == 2)
    #expect(report.textLines().filter { $0.hasPrefix("KIND ") }.count == 3)
  }

  @Test func theSameLeaksAtOtherAddressesHaveTheSameIds() {
    var moved = Self.handlerLeaks(2)
    for index in moved.blocks.indices { moved.blocks[index].address += 0x7000_0000 }
    #expect(
      LeakReport(graph: moved).kinds.map(\.id) == LeakReport(graph: Self.handlerLeaks(2)).kinds.map(\.id))
  }

  @Test func aSuppressedKindIsStillListedUnderItsRule() {
    var graph = Self.handlerLeaks(1)
    let cache = graph.blocks.count
    graph.blocks.append(Self.block(0x5, "Cache", module: "Lib"))
    graph.edges.append(LeakEdge(from: cache, to: cache, label: "entries", strength: .strong))
    let report = LeakReport(graph: graph, suppressions: Suppressions(patterns: ["Lib.Cache"]))
    let cacheID = LeakKind.id(of: "Cache ↻ (entries)")
    #expect(report.kinds.map(\.signature) == [Self.handlerSignature])
    #expect(report.suppressed.map { $0.kinds.map(\.line) } == [["1 × Cache ↻ (entries)  [\(cacheID)]"]])
    #expect(
      report.textLines().suffix(3) == [
        "Suppressed:", "   Lib.Cache: 1 blocks, 32 B", "      1 × Cache ↻ (entries)  [\(cacheID)]",
      ])
  }

  /// A report whose kinds are `counts` (signature → leaks), as a baseline reads it.
  static func baseline(_ counts: KeyValuePairs<String, Int>) -> LeakBaseline {
    LeakBaseline(kinds: counts.map { .init(id: LeakKind.id(of: $0.key), signature: $0.key, count: $0.value) })
  }

  @Test func aBaselineSaysWhichKindsAreNewGoneOrPersistedAndFailsOnNewOnes() throws {
    var graph = Self.handlerLeaks(2)
    graph.blocks.append(Self.block(0x6, "Token"))
    let report = LeakReport(graph: graph)
    let comparison = BaselineComparison(
      report: report, baseline: Self.baseline(["Token": 1, "Ghost": 4]), file: "main.json")
    #expect(comparison.new.map(\.signature) == [Self.handlerSignature])
    #expect(comparison.gone.map(\.signature) == ["Ghost"])
    #expect(comparison.persisted.map(\.kind.signature) == ["Token"])
    #expect(comparison.fails(threshold: nil))
    #expect(!comparison.fails(threshold: nil) { $0.signature == "Token" })
    #expect(
      comparison.textLines == [
        "Compared with main.json: 1 new, 1 gone, 1 persisted",
        "   new        2 × \(Self.handlerSignature)  [\(LeakKind.id(of: Self.handlerSignature))]",
        "   gone       4 × Ghost  [\(LeakKind.id(of: "Ghost"))]",
        "   persisted  1 × Token  [\(LeakKind.id(of: "Token"))]",
      ])
  }

  @Test func aPersistedKindFailsOnlyWhenItGrewPastTheThreshold() {
    let report = LeakReport(graph: Self.handlerLeaks(3))
    let comparison = BaselineComparison(
      report: report, baseline: Self.baseline([Self.handlerSignature: 1]), file: "main.json")
    #expect(comparison.new.isEmpty)
    #expect(comparison.persisted.map(\.growth) == [2])
    #expect(!comparison.fails(threshold: nil))
    #expect(!comparison.fails(threshold: 2))
    #expect(comparison.fails(threshold: 1))
  }

  @Test func aFileThatIsNoLeaksReportIsRefusedInOneLine() {
    #expect(throws: BadBaseline(description: "not a report of `leaklab leaks --json`")) {
      try LeakBaseline.decode(Data("{\"types\": []}".utf8))
    }
    #expect(
      throws: BadBaseline(
        description: "a report without leak kinds (schema 1): write it again with this leaklab")
    ) {
      try LeakBaseline.decode(Data("{\"schema\": 1, \"objects\": []}".utf8))
    }
  }

  @Test func theJSONListsTheKindsAndEachObjectsKind() throws {
    let report = LeakReport(graph: Self.handlerLeaks(2))
    let data = report.json(
      process: CheckedProcess(pid: 1, executable: "/bin/app", arguments: [], mode: .launched))
    let document = try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
    let kinds = try #require(document["kinds"] as? [[String: Any]])
    #expect(kinds.map { $0["signature"] as? String } == [Self.handlerSignature])
    #expect(kinds.first?["count"] as? Int == 2)
    let objects = try #require(document["objects"] as? [[String: Any]])
    #expect(Set(objects.compactMap { $0["leakKind"] as? String }) == [LeakKind.id(of: Self.handlerSignature)])
    #expect(LeakBaseline.decodeOrNil(data)?.kinds.map(\.count) == [2])
  }
}

extension LeakBaseline {
  static func decodeOrNil(_ data: Data) -> LeakBaseline? { try? decode(data) }
}

/// Where a kind's report says to look: its pattern and its suspect reference.
@Suite struct LeakKindWhereToLookTests {
  @Test func aHandlerContextKindNamesItsPatternAndTheProgramsReferenceAsTheSuspect() throws {
    let report = LeakReport(graph: LeakKindTests.handlerLeaks(2))
    let kind = try #require(report.kinds.first)
    #expect(kind.pattern?.scenario == "handler-context")
    #expect(kind.lookAt == ["SessionHandler.context"])
    let lines = report.textLines()
    #expect(
      lines.contains(
        "   look at: SessionHandler.context, the reference to break (◀ suspect below); every block on the cycle is expected gone"
      ))
    // The cycle is drawn first under its root, the suspect marked, the library's reference back not.
    let root = try #require(lines.firstIndex { $0.hasPrefix("ROOT CYCLE: ") })
    #expect(lines[root + 1] == "   context: <ChannelHandlerContext 0x100000 96 B>   ◀ suspect")
    #expect(lines[root + 2] == "      handler: CYCLE BACK TO <SessionHandler 0x100100 48 B>")
  }

  /// A cycle through a closure (`completion` names the closure that captures
  /// the use case) is the stored-closure pattern, and the capture is the suspect.
  @Test func aStoredClosureCapturingItsOwnerIsTheClosureCapturePatternWithTheCaptureAsSuspect() throws {
    let blocks = [
      LeakKindTests.block(0x100, "FeedService", size: 48),
      LeakKindTests.block(0x200, "LoadFeedUseCase", size: 48),
    ]
    let edges = [
      LeakEdge(
        from: 0, to: 1, label: "completion", strength: .strong, closure: "closure in LoadFeedUseCase.start()"),
      LeakEdge(from: 1, to: 0, label: "service", strength: .strong),
    ]
    let report = LeakReport(graph: LeakGraph(blocks: blocks, edges: edges))
    let kind = try #require(report.kinds.first)
    #expect(kind.pattern == LeakPattern.all.first { $0.pattern.scenario == "closure-capture" }?.pattern)
    #expect(kind.lookAt == ["FeedService.completion"])
    #expect(kind.whereToLookLines.first == kind.pattern?.line)
  }

  @Test func aLeakWithoutACycleHasNoPatternAndNoSuspect() throws {
    let report = LeakReport(graph: LeakGraph(blocks: [LeakKindTests.block(0x100, "Orphan")], edges: []))
    let kind = try #require(report.kinds.first)
    #expect(kind.pattern == nil)
    #expect(kind.lookAt.isEmpty)
    #expect(kind.reading?.objects == [.gone("nothing reachable holds it")])
  }

  @Test func theJSONSaysWhatIsExpectedOfEachObjectAndWhichReferenceIsTheSuspect() throws {
    let report = LeakReport(graph: LeakKindTests.handlerLeaks(1))
    let process = CheckedProcess(pid: 1, executable: "/bin/app", arguments: [], mode: .launched)
    let document = try JSONSerialization.jsonObject(with: report.json(process: process)) as? [String: Any]
    let kinds = document?["kinds"] as? [[String: Any]]
    let kind = try #require(kinds?.first)
    #expect((kind["pattern"] as? [String: String])?["lintRule"] == "strong-back-reference")
    let trace = try #require(kind["trace"] as? [String: Any])
    let expected = (trace["objects"] as? [[String: Any]])?.compactMap { $0["expected"] as? String }
    #expect(expected == ["gone", "gone"])
    let suspects = (trace["references"] as? [[String: Any]])?.filter { $0["suspect"] as? Bool == true }
    #expect(suspects?.compactMap { $0["label"] as? String } == ["context"])
  }
}
