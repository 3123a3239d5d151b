extension LeakReport {
  /// Bounds on the text report, so a program that leaked a million blocks
  /// still gets a readable one (the JSON report has everything).
  public struct TextLimits: Sendable, Hashable {
    /// Lines drawn under one root before the rest is counted.
    public var linesPerTree: Int
    /// Deepest level drawn.
    public var depth: Int
    /// Trees drawn before the rest are counted.
    public var trees: Int

    /// Creates limits; the defaults suit a terminal.
    public init(linesPerTree: Int = 40, depth: Int = 12, trees: Int = 50) {
      self.linesPerTree = linesPerTree
      self.depth = depth
      self.trees = trees
    }
  }

  /// The report for a person: the summary line, each retain cycle as a tree
  /// from its root object (`ROOT CYCLE: <FeedService 0x… 48 B>`), other leak
  /// roots that hold something (`ROOT LEAK:`), then the remaining leaked
  /// blocks grouped by type.
  ///
  /// ```text
  /// 2 leaked objects, 112 bytes, 1 retain cycle
  ///
  /// ROOT CYCLE: <FeedService 0x5581e2a0 64 B>
  ///    completion: closure in LoadFeedUseCase.start(leaky:) → captures <LoadFeedUseCase 0x5581e2d0 48 B>
  ///       service: CYCLE BACK TO <FeedService 0x5581e2a0 64 B>
  /// ```
  public func textLines(limits: TextLimits = TextLimits()) -> [String] {
    var lines = [summary]
    var drawer = TreeDrawer(report: self, limits: limits)
    let trees = drawer.roots()
    // Trees that read the same but for addresses are drawn once, with a count.
    var drawnTrees: [(lines: [String], key: [String], count: Int)] = []
    for (number, root) in trees.enumerated() {
      if number == limits.trees {
        drawnTrees.append((["… \(trees.count - number) more leak roots (see --json)"], [], 1))
        break
      }
      // A root already drawn inside an earlier tree (a cycle held by another) is not drawn again.
      if drawer.drawn[root.block] { continue }
      let tree = drawer.draw(root)
      let key = tree.map(Self.withoutAddresses)
      if let same = drawnTrees.firstIndex(where: { $0.key == key }) {
        drawnTrees[same].count += 1
      } else {
        drawnTrees.append((tree, key, 1))
      }
    }
    for tree in drawnTrees {
      lines.append("")
      var treeLines = tree.lines
      if tree.count > 1 { treeLines[0] += "  (and \(tree.count - 1) more like it)" }
      lines += treeLines
    }
    let rest = graph.blocks.indices.filter { !drawer.drawn[$0] }
    if !rest.isEmpty {
      lines += ["", trees.isEmpty ? "Leaked, by type:" : "Other leaked blocks, by type:"]
      lines += Self.groupLines(rest.map { graph.blocks[$0] })
    }
    if !suppressed.isEmpty {
      lines += ["", "Suppressed:"]
      for rule in suppressed {
        let reason = rule.reason.map { " — \($0)" } ?? ""
        lines.append("   \(rule.pattern): \(rule.blocks) blocks, \(rule.bytes) B\(reason)")
        if !rule.holds.isEmpty {
          lines.append("      it holds, reported above: \(rule.holds.joined(separator: ", "))")
        }
      }
    }
    return lines
  }

  /// A line with every `0x…` address blanked.
  static func withoutAddresses(_ line: String) -> String {
    line.replacing(/0x[0-9a-f]+/, with: "0x…")
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
    var successors = [[Int]](repeating: [], count: report.graph.blocks.count)
    for edge in report.graph.edges where edge.keepsAlive { successors[edge.from].append(edge.to) }
    component = StrongComponents(nodeCount: report.graph.blocks.count, successors: successors).component
    drawn = Array(repeating: false, count: report.graph.blocks.count)
  }

  /// The roots to draw: every cycle's root, then each block that nothing
  /// outside its own cycle keeps alive and that holds other blocks, largest first.
  func roots() -> [(block: Int, isCycle: Bool)] {
    let blocks = report.graph.blocks
    var held = [Bool](repeating: false, count: blocks.count)
    for edge in report.graph.edges where edge.keepsAlive && component[edge.from] != component[edge.to] {
      held[edge.to] = true
    }
    let cycleRoots = report.cycles.map(\.root)
    let inCycle = Set(report.cycles.flatMap(\.members))
    let leakRoots = blocks.indices.filter { block in
      !held[block] && !inCycle.contains(block) && outgoing[block].contains { $0.keepsAlive && $0.to != block }
    }
    let sortedCycles = cycleRoots.filter { !held[$0] } + cycleRoots.filter { held[$0] }
    return sortedCycles.map { ($0, true) }
      + leakRoots.sorted { (blocks[$0].size, $1) > (blocks[$1].size, $0) }.map { ($0, false) }
  }

  mutating func draw(_ root: (block: Int, isCycle: Bool)) -> [String] {
    let blocks = report.graph.blocks
    var lines = ["\(root.isCycle ? "ROOT CYCLE" : "ROOT LEAK"): \(blocks[root.block])"]
    lines += LeakReport.siteLines(of: blocks[root.block], indent: "   ")
    drawn[root.block] = true
    // Depth-first, children in field order: (block, depth, next edge).
    var stack: [(block: Int, depth: Int, next: Int)] = [(root.block, 1, 0)]
    while let top = stack.last {
      guard top.next < outgoing[top.block].count else {
        stack.removeLast()
        continue
      }
      stack[stack.count - 1].next += 1
      let edge = outgoing[top.block][top.next]
      if edge.to == top.block && !edge.keepsAlive { continue }
      if lines.count > limits.linesPerTree {
        let remaining = undrawnReachable(from: root.block)
        if remaining > 0 {
          lines.append("   … \(remaining) more blocks held from here (listed by type below)")
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
        lines.append(indent + prefix(of: edge) + closure + back + "\(target)")
        continue
      }
      lines.append(indent + prefix(of: edge) + describe(edge, target: target))
      lines += LeakReport.siteLines(of: target, indent: indent + "   ")
      guard edge.keepsAlive else { continue }
      drawn[edge.to] = true
      if top.depth < limits.depth { stack.append((edge.to, top.depth + 1, 0)) }
    }
    return lines
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

  private func undrawnReachable(from root: Int) -> Int {
    var seen = Set([root])
    var queue = [root]
    var count = 0
    while let block = queue.popLast() {
      for edge in outgoing[block] where edge.keepsAlive && !seen.contains(edge.to) {
        seen.insert(edge.to)
        queue.append(edge.to)
        if !drawn[edge.to] { count += 1 }
      }
    }
    return count
  }
}
