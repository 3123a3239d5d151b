extension LeakReport {
  /// Bounds on the text report, so a program that leaked a million blocks
  /// still gets a readable one (the JSON report has everything).
  public struct TextLimits: Sendable, Hashable {
    /// Lines drawn under one root before the rest is counted.
    public var linesPerTree: Int
    /// Deepest level drawn.
    public var depth: Int
    /// Kinds drawn (one tree each) before the rest are only listed.
    public var trees: Int

    /// Creates limits; the defaults suit a terminal.
    public init(linesPerTree: Int = 40, depth: Int = 12, trees: Int = 50) {
      self.linesPerTree = linesPerTree
      self.depth = depth
      self.trees = trees
    }
  }

  /// The report for a person: the summary line, one line per kind of leak
  /// (``LeakKind``), then each kind's first leak drawn as a tree from its
  /// root — a retain cycle from its root object (`ROOT CYCLE: <FeedService
  /// 0x… 48 B>`), else the block nothing holds (`ROOT LEAK:`) — then what
  /// suppression rules set aside, kind by kind.
  ///
  /// ```text
  /// 2 leaked objects, 112 bytes, 1 retain cycle
  ///    1 × FeedService ⇄ LoadFeedUseCase (completion, service)  [6f0e2b14]
  ///
  /// KIND 6f0e2b14: 1 × FeedService ⇄ LoadFeedUseCase (completion, service), 2 blocks, 112 B
  /// ROOT CYCLE: <FeedService 0x5581e2a0 64 B>
  ///    completion: closure in LoadFeedUseCase.start(leaky:) → captures <LoadFeedUseCase 0x5581e2d0 48 B>
  ///       service: CYCLE BACK TO <FeedService 0x5581e2a0 64 B>
  /// ```
  public func textLines(limits: TextLimits = TextLimits(), baseline: BaselineComparison? = nil) -> [String] {
    var lines = [summary]
    let width = String(kinds.first?.count ?? 0).count
    for kind in kinds {
      let count = String(kind.count)
      lines.append("   " + String(repeating: " ", count: width - count.count) + kind.line)
    }
    if let baseline { lines += [""] + baseline.textLines }
    var drawer = TreeDrawer(report: self, limits: limits)
    for (number, kind) in kinds.enumerated() {
      if number == limits.trees {
        lines += ["", "… \(kinds.count - number) more kinds, listed above, not drawn (see --json)"]
        break
      }
      guard let root = kind.roots.first else { continue }
      let blocks = kind.blocks == 1 ? "1 block" : "\(kind.blocks) blocks"
      lines += ["", "KIND \(kind.id): \(kind.count) × \(kind.signature), \(blocks), \(kind.bytes) B"]
      lines += kind.whereToLookLines.map { "   " + $0 }
      let suspects = Set(kind.reading?.suspects.map { kind.wayBack[$0] } ?? [])
      lines += drawer.draw((root, kind.isCycle), wayBack: Set(kind.wayBack), suspects: suspects)
    }
    if !suppressed.isEmpty {
      lines += ["", "Suppressed:"]
      for rule in suppressed {
        let reason = rule.reason.map { " — \($0)" } ?? ""
        lines.append("   \(rule.pattern): \(rule.blocks) blocks, \(rule.bytes) B\(reason)")
        lines += rule.kinds.map { "      \($0.line)" }
        if !rule.holds.isEmpty {
          lines.append("      it holds, reported above: \(rule.holds.joined(separator: ", "))")
        }
      }
    }
    return lines
  }

  /// `   3 × malloc block   96 B`, largest total first.
  static func groupLines(_ blocks: [LeakedBlock]) -> [String] {
    var groups: [String: (count: Int, bytes: Int)] = [:]
    for block in blocks {
      let key = groupName(of: block)
      groups[key, default: (0, 0)].count += 1
      groups[key, default: (0, 0)].bytes += block.size
    }
    let sorted = groups.sorted { ($0.value.bytes, $1.key) > ($1.value.bytes, $0.key) }
    let width = sorted.map { "\($0.value.count) × \($0.key)".count }.max() ?? 0
    return sorted.map { name, group in
      let label = "\(group.count) × \(name)"
      return "   " + label + String(repeating: " ", count: width - label.count) + "  \(group.bytes) B"
    }
  }
}

/// Draws leak trees: each block once, cycles closed with `CYCLE BACK TO`.
private struct TreeDrawer {
  let report: LeakReport
  let limits: LeakReport.TextLimits
  let outgoing: [[LeakEdge]]
  let component: [Int]
  var drawn: [Bool]

  init(report: LeakReport, limits: LeakReport.TextLimits) {
    self.report = report
    self.limits = limits
    outgoing = report.graph.outgoing()
    component = report.keepAlive.component
    drawn = Array(repeating: false, count: report.graph.blocks.count)
  }

  /// The tree of `root`, the cycle's `wayBack` drawn first under each of
  /// its blocks (a line limit cuts what hangs below, not the cycle); the
  /// `suspects` (references to look at) end their line with `◀ suspect`.
  mutating func draw(
    _ root: (block: Int, isCycle: Bool), wayBack: Set<LeakEdge> = [], suspects: Set<LeakEdge> = []
  )
    -> [String]
  {
    func children(_ block: Int) -> [LeakEdge] {
      let edges = outgoing[block]
      return edges.filter(wayBack.contains) + edges.filter { !wayBack.contains($0) }
    }
    let blocks = report.graph.blocks
    var lines = ["\(root.isCycle ? "ROOT CYCLE" : "ROOT LEAK"): \(blocks[root.block])"]
    lines += LeakReport.siteLines(of: blocks[root.block], indent: "   ")
    drawn[root.block] = true
    // Depth-first, children in field order, the cycle's first: (block, depth, edges, next edge).
    var stack: [(block: Int, depth: Int, edges: [LeakEdge], next: Int)] = [
      (root.block, 1, children(root.block), 0)
    ]
    while let top = stack.last {
      guard top.next < top.edges.count else {
        stack.removeLast()
        continue
      }
      stack[stack.count - 1].next += 1
      let edge = top.edges[top.next]
      if edge.to == top.block && !edge.keepsAlive { continue }
      if lines.count > limits.linesPerTree {
        let remaining = undrawnReachable(from: root.block)
        if !remaining.isEmpty {
          lines.append("   … \(remaining.count) more blocks held from here, by type:")
          lines += LeakReport.groupLines(remaining.map { blocks[$0] }).map { "   " + $0 }
        }
        break
      }
      let indent = String(repeating: "   ", count: top.depth)
      let target = blocks[edge.to]
      if drawn[edge.to] {
        // A weak reference back is drawn plainly: it is why there is no cycle.
        let back =
          !edge.keepsAlive
          ? "" : component[edge.to] == component[root.block] ? "CYCLE BACK TO " : "(shown above) "
        let closure = edge.closure.map { "\($0) → " } ?? ""
        lines.append(indent + prefix(of: edge) + closure + back + "\(target)" + mark(edge, suspects))
        continue
      }
      lines.append(indent + prefix(of: edge) + describe(edge, target: target) + mark(edge, suspects))
      lines += LeakReport.siteLines(of: target, indent: indent + "   ")
      guard edge.keepsAlive else { continue }
      drawn[edge.to] = true
      if top.depth < limits.depth { stack.append((edge.to, top.depth + 1, children(edge.to), 0)) }
    }
    return lines
  }

  private func mark(_ edge: LeakEdge, _ suspects: Set<LeakEdge>) -> String {
    suspects.contains(edge) ? "   ◀ suspect" : ""
  }

  /// `completion: `, `delegate (weak): `, `word 3 (conservative): `.
  private func prefix(of edge: LeakEdge) -> String {
    var label = edge.label
    if edge.strength != .strong { label += " (\(edge.strength.rawValue))" }
    if edge.isConservative { label += " (conservative)" }
    return label + ": "
  }

  private func describe(_ edge: LeakEdge, target: LeakedBlock) -> String {
    guard let closure = edge.closure else { return "\(target)" }
    if target.kind == .closureContext { return "\(closure) → \(target)" }
    return "\(closure) → captures \(target)"
  }

  /// The blocks `root` holds that no tree drew.
  private func undrawnReachable(from root: Int) -> [Int] {
    var seen = Set([root])
    var queue = [root]
    var undrawn: [Int] = []
    while let block = queue.popLast() {
      for edge in outgoing[block] where edge.keepsAlive && !seen.contains(edge.to) {
        seen.insert(edge.to)
        queue.append(edge.to)
        if !drawn[edge.to] { undrawn.append(edge.to) }
      }
    }
    return undrawn
  }
}
