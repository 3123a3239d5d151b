/// What leaked, organised for a reader: retain cycles with a root object
/// each, other leak roots, and what suppression rules set aside.
///
/// ```swift
/// let report = LeakReport(graph: graph, suppressions: Suppressions(patterns: ["Foundation.Timer"]))
/// print(report.summary)   // 2 leaked objects, 112 bytes, 1 retain cycle
/// ```
public struct LeakReport: Sendable {
  /// The leaked blocks still reported (suppressed ones removed) and their references.
  public var graph: LeakGraph
  /// The retain cycles among them: strongly connected by references that
  /// keep their targets alive.
  public var cycles: [RetainCycle]
  /// What suppression rules set aside, by rule.
  public var suppressed: [SuppressedLeaks]
  /// The kinds of the reported leaks, the most leaks first (see ``LeakKind``).
  public var kinds: [LeakKind]
  /// For each reported block, the index in ``kinds`` of the kind that holds it.
  public var kindOfBlock: [Int]
  /// Who keeps whom alive in ``graph``, computed once for the cycles, the
  /// kinds and the drawing.
  let keepAlive: LeakGraph.KeepAlive

  /// A retain cycle: blocks that keep each other alive.
  public struct RetainCycle: Sendable, Hashable {
    /// The block the cycle is shown from (a class instance when there is one).
    public var root: Int
    /// Every block of the cycle, in address order.
    public var members: [Int]
  }

  /// The blocks one suppression rule set aside.
  public struct SuppressedLeaks: Sendable, Hashable {
    /// The rule's pattern.
    public var pattern: String
    /// Why the rule exists (its comment in the suppressions file).
    public var reason: String?
    /// How many blocks it set aside, and their bytes.
    public var blocks: Int
    public var bytes: Int
    /// The types of the reported blocks it holds (`Poller`): yours, leaked
    /// because the library leaked.
    public var holds: [String] = []
    /// The kinds of the leaks it set aside, still counted.
    public var kinds: [LeakKind] = []
  }

  /// Builds the report of `graph`, after `suppressions`.
  public init(graph: LeakGraph, suppressions: Suppressions = Suppressions()) {
    let split = suppressions.split(graph)
    self.graph = split.kept
    keepAlive = split.kept.keepAlive()
    cycles = Self.cycles(in: split.kept, keepAlive: keepAlive)
    (kinds, kindOfBlock) = Self.kinds(of: split.kept, cycles: cycles, keepAlive: keepAlive)
    // A suppressed kind is still listed, under the rule that set it aside.
    let asideKeepAlive = split.setAside.keepAlive()
    let aside = Self.kinds(
      of: split.setAside, cycles: Self.cycles(in: split.setAside, keepAlive: asideKeepAlive),
      keepAlive: asideKeepAlive
    ).kinds
    suppressed = zip(split.suppressed, split.suppressingRules).map { leaks, rule in
      var leaks = leaks
      leaks.kinds = aside.filter { kind in kind.roots.first.map { split.ruleOfSetAside[$0] == rule } ?? false
      }
      return leaks
    }
  }

  // MARK: Figures

  /// The number of leaked blocks reported.
  public var leakedBlocks: Int { graph.blocks.count }
  /// Their bytes.
  public var leakedBytes: Int { graph.blocks.reduce(0) { $0 + $1.size } }
  /// The malloc blocks they are made of (an object and its side table are two).
  public var leakedHeapBlocks: Int { graph.blocks.reduce(0) { $0 + 1 + $1.foldedBlocks } }
  /// Whether anything is reported.
  public var hasLeaks: Bool { !graph.blocks.isEmpty }

  /// `2 leaked objects, 112 bytes, 1 retain cycle`.
  public var summary: String {
    let objects = leakedBlocks == 1 ? "1 leaked object" : "\(leakedBlocks) leaked objects"
    let bytes = leakedBytes == 1 ? "1 byte" : "\(leakedBytes) bytes"
    let cycleCount = cycles.count == 1 ? "1 retain cycle" : "\(cycles.count) retain cycles"
    var text = "\(objects), \(bytes), \(cycleCount)"
    let setAside = suppressed.reduce(0) { $0 + $1.blocks }
    if setAside > 0 { text += " (\(setAside) suppressed)" }
    return text
  }

  // MARK: Cycles

  static func cycles(in graph: LeakGraph, keepAlive: LeakGraph.KeepAlive) -> [RetainCycle] {
    var members = [[Int]](repeating: [], count: keepAlive.componentCount)
    for (block, component) in keepAlive.component.enumerated() { members[component].append(block) }
    return members.filter { $0.count > 1 || ($0.count == 1 && keepAlive.keepsItself.contains($0[0])) }
      .map { RetainCycle(root: rootOfCycle($0, in: graph), members: $0.sorted()) }
      .sorted { $0.root < $1.root }
  }

  /// The member a cycle is shown from: an instance of one of the program's
  /// own types, else any class instance, else any block; among them the
  /// first type by name (so that equal cycles are shown from the same type
  /// and read the same), then the lowest address.
  private static func rootOfCycle(_ members: [Int], in graph: LeakGraph) -> Int {
    func first(_ candidates: [Int]) -> Int? {
      candidates.min { (graph.blocks[$0].typeName, $0) < (graph.blocks[$1].typeName, $1) }
    }
    return first(members.filter { graph.blocks[$0].isProgramType })
      ?? first(members.filter { graph.blocks[$0].kind == .object }) ?? first(members)!
  }
}
