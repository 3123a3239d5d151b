import MemoryView

extension HeapModel {
  /// A chain of references from a root to a block: the root word points into
  /// `blocks[0]`, each edge leads to the next block, the last is the block
  /// asked about.
  public struct RootPath: Sendable, Hashable {
    public var root: RootEdge
    public var blocks: [Int]
    /// `edges[i]` leads from `blocks[i]` to `blocks[i + 1]`.
    public var edges: [Edge]
  }

  /// The outcome of a search back to a root.
  public struct RootSearchOutcome: Sendable {
    /// The cheapest path to an accepted root, or else to any root.
    public var path: RootPath?
    /// Blocks visited.
    public var visited: Int
    /// Whether a bound stopped the search first.
    public var isTruncated: Bool
  }

  /// What a step of a path costs: a reference Swift metadata names costs 1;
  /// a reference no metadata counts (admitted by the target's strong count)
  /// from an object of a C runtime or a Swift object's opaque part costs 1,
  /// from a plain C buffer 2, from one over 1 KiB 3 (a table grown ahead of
  /// its count keeps stale words); into a Swift object such a step costs 2
  /// more, so a chain of named references to an equally good root wins over
  /// one word of memory nobody describes. Nil: the edge holds nothing
  /// alive, or it is a word of the runtime's metadata memory
  /// (``markMetadataMemory()``) that points out of it: that memory holds
  /// metadata, never a program's block, so such a word is a stale copy and
  /// never a step of a path (measured: a tuple cache's node held a word into
  /// the middle of a test's C list; an empty bucket of the type-name cache's
  /// table, whose values are never written, led to a test's survivor, 1
  /// fresh-clone run in 8).
  ///
  /// A word of a plain table over 1 KiB into a plain block that an object
  /// points at (a Swift object's opaque part, a C runtime's object: the
  /// block's owner) costs ``tableWordPenalty`` more: the owner's path is
  /// the answer when it has one (measured: a stale word in the tail of
  /// CoreFoundation's 2 KiB chunk of hash callbacks, behind the global
  /// `CFBasicHashCallBackPtrs`, pointed at a run loop mode set's storage,
  /// and was a cheaper path than the run loop's own, 1 run in 250 of a
  /// timer's test under load).
  public func cost(of edge: Edge) -> Int? {
    guard isStep(edge) else { return nil }
    if edge.kind == .strong && !edge.isInterior { return 1 }
    let sourceKind = kind(of: edge.source)
    let step: Int
    if Self.isTyped(sourceKind) {
      step = 1
    } else if snapshot.heap[edge.source].size > 1024 {
      step = 3 + (isOwnedByAnObject(edge.target) ? Self.tableWordPenalty : 0)
    } else {
      step = 2
    }
    return kind(of: edge.target).isSwiftObject ? step + 2 : step
  }

  /// Whether a block of `kind` says what it is: a Swift object, a C
  /// runtime's object (a vtable or isa first), a block.
  private static func isTyped(_ kind: BlockKind) -> Bool {
    kind.isSwiftObject || kind == .cObject || kind == .block
  }

  /// Whether `edge` can be a step of a path (see ``cost(of:)``): it holds
  /// its target alive, and it is no word of the runtime's metadata memory
  /// that points out of it.
  private func isStep(_ edge: Edge) -> Bool {
    holdsLife(edge) && !(metadataBlocks.contains(edge.source) && !metadataBlocks.contains(edge.target))
  }

  /// Whether plain block `block` has an owner that says what it is: an
  /// object whose word points at its start and is a step of a path (see
  /// ``cost(of:)``). A word that is never a step is never an owner's: a
  /// stale word in an empty bucket of the runtime's type-name cache (whose
  /// table its first key, a type's metadata, makes look like a C object)
  /// pointed at the first link of a test's chain of plain nodes, whose own
  /// path then cost the penalty and lost to a table's stale word.
  private func isOwnedByAnObject(_ block: Int) -> Bool {
    guard kind(of: block) == .mallocBlock else { return false }
    if !backwardIndexIsComplete { completeBackwardIndex() }
    for slot in Int(inStart.base![block])..<Int(inStart.base![block + 1]) {
      let source = inSources.base![slot]
      guard source & Self.interiorBit == 0, Self.isTyped(kind(of: Int(source))) else { continue }
      if isStep(edge(at: Int(inEdges.base![slot]), source: Int(source))) { return true }
    }
    return false
  }

  /// Searches backwards from `target` for the cheapest path from a root that
  /// keeps it alive (see ``cost(of:)``).
  ///
  /// A root adds its kind's ``RootKind/penalty``; on a tie the better
  /// ``RootKind/rank`` wins. A path to a root `accepts` refuses is kept only
  /// as a last answer. References to block starts are followed first;
  /// references into the middle of C blocks only when that finds no
  /// accepted root, or finds only the caller's own stack. Blocks in
  /// `excluded` are never a step.
  public func pathToRoot(
    from target: Int, accepts: (RootKind) -> Bool, excluded: Set<Int> = [], maxNodes: Int = 2_000_000,
    deadline: ContinuousClock.Instant? = nil
  ) -> RootSearchOutcome {
    let precise = pathToRoot(
      from: target, interior: false, accepts: accepts, excluded: excluded, maxNodes: maxNodes,
      deadline: deadline)
    // The caller's own locals are the last answer: a global's pointer into
    // the block's middle is a better one (a dead slot of the caller's stack
    // kept the block's start under load).
    if let path = precise.path, accepts(path.root.kind), !path.root.kind.isCallerStack { return precise }
    if precise.isTruncated { return precise }
    var loose = pathToRoot(
      from: target, interior: true, accepts: accepts, excluded: excluded, maxNodes: maxNodes,
      deadline: deadline)
    loose.visited += precise.visited
    if let kept = precise.path, accepts(kept.root.kind),
      loose.path.map({ !accepts($0.root.kind) || $0.root.kind.rank >= kept.root.kind.rank }) ?? true
    {
      loose.path = kept
    } else if loose.path == nil {
      loose.path = precise.path
    }
    return loose
  }

  private func pathToRoot(
    from target: Int, interior: Bool, accepts: (RootKind) -> Bool, excluded: Set<Int>, maxNodes: Int,
    deadline: ContinuousClock.Instant?
  ) -> RootSearchOutcome {
    let count = blockCount
    guard target >= 0, target < count else {
      return RootSearchOutcome(path: nil, visited: 0, isTruncated: false)
    }
    // Per block: the edge position towards the target (-1: not reached), and the cost to the target.
    let nextTable = ScratchBuffer<Int32>()
    nextTable.fill(-1, count: count)
    let distanceTable = ScratchBuffer<Int32>()
    distanceTable.fill(Int32.max, count: count)
    let next = nextTable.base!
    let distance = distanceTable.base!
    distance[target] = 0
    var buckets: [[Int]] = [[target]]
    var visited = 0
    var fallback: RootPath?
    var best: (cost: Int, path: RootPath)?
    let clock = ContinuousClock()
    func path(from block: Int, root: RootEdge) -> RootPath {
      var blocks = [block]
      var edges: [Edge] = []
      var current = block
      while current != target {
        let edge = self.edge(at: Int(next[current]), source: current)
        edges.append(edge)
        current = edge.target
        blocks.append(current)
      }
      return RootPath(root: root, blocks: blocks, edges: edges)
    }
    var current = 0
    while current < buckets.count {
      if let best, best.cost < current { break }
      guard let block = buckets[current].popLast() else {
        current += 1
        continue
      }
      guard distance[block] == Int32(current) else { continue }  // reached more cheaply since
      visited += 1
      if visited > maxNodes || (visited & 1023 == 0 && deadline.map { clock.now > $0 } == true) {
        return RootSearchOutcome(path: best?.path ?? fallback, visited: visited, isTruncated: true)
      }
      for root in roots(of: block)
      where holdsMemory(root) && (interior || !root.isInterior) && !isMetadataWordOutOfIt(root) {
        guard accepts(root.kind) else {
          if fallback == nil || root.kind.rank < fallback!.root.kind.rank {
            fallback = path(from: block, root: root)
          }
          continue
        }
        let total = current + penalty(of: root)
        if best == nil || total < best!.cost
          || (total == best!.cost && root.kind.rank < best!.path.root.kind.rank)
        {
          best = (total, path(from: block, root: root))
        }
      }
      guard !isRootBlock(block) else { continue }
      for edge in edges(into: block) where edge.source != target && !excluded.contains(edge.source) {
        guard interior || !edge.isInterior, let step = cost(of: edge) else { continue }
        let reached = current + step
        guard reached < Int(distance[edge.source]) else { continue }
        distance[edge.source] = Int32(reached)
        next[edge.source] = Int32(edge.position)
        while buckets.count <= reached { buckets.append([]) }
        buckets[reached].append(edge.source)
      }
    }
    return RootSearchOutcome(path: best?.path ?? fallback, visited: visited, isTruncated: false)
  }

  /// Whether `root` is a word of one of the runtime's metadata caches that
  /// points out of its metadata memory: a stale copy, like such a word in a
  /// block (see ``cost(of:)``).
  func isMetadataWordOutOfIt(_ root: RootEdge) -> Bool {
    guard case .global = root.kind, root.wordAddress != 0, !metadataBlocks.contains(root.target) else {
      return false
    }
    return isMetadataCacheWord(root.wordAddress)
  }

  /// What a path from `root` costs on top of its length: its kind's
  /// ``RootKind/penalty``, ``tableWordPenalty`` more for an exited thread's
  /// storage, and for a global word that is not a variable of
  /// its own (a pointer-sized symbol, or a Swift global) but one word of a
  /// larger table — a runtime's cache, a library's array — ``tableWordPenalty``
  /// more: a table keeps stale words of what it held before, a variable holds
  /// what it points at.
  func penalty(of root: RootEdge) -> Int {
    switch root.kind {
    case .global where root.wordAddress != 0:
      return root.kind.penalty + (isVariable(root.wordAddress) ? 0 : Self.tableWordPenalty)
    case .threadLocal(0, _):
      // An exited thread's storage, which glibc keeps with its stack: what
      // it held when the thread ended, a weak answer to what holds it now.
      return root.kind.penalty + Self.tableWordPenalty
    default:
      return root.kind.penalty
    }
  }

  /// The extra cost of a root in the middle of a global table (see ``penalty(of:)``).
  static let tableWordPenalty = 30

  /// Whether the global word at `address` is a variable of its own: the
  /// symbol that holds it starts there and is at most two words long, or is
  /// a Swift global variable (`$s…vp`).
  func isVariable(_ address: UInt) -> Bool {
    guard let image = snapshot.images.image(containing: address),
      let symbol = image.symbol(containing: address, kinds: .object)
    else { return false }
    if symbol.name.hasPrefix("$s"), symbol.name.hasSuffix("vp") { return true }
    return symbol.address == address && symbol.size <= 16
  }

  /// The cheapest chain of references that keep each other alive from
  /// `block` back to itself (a retain cycle through it), or nil. Costs as in
  /// ``cost(of:)``.
  public func shortestCycle(through block: Int, maxNodes: Int = 200_000) -> [Edge]? {
    var distance: [Int: Int] = [block: 0]
    var previous: [Int: Edge] = [:]
    var buckets: [[Int]] = [[block]]
    var closing: (cost: Int, edge: Edge)?
    var current = 0
    var visited = 0
    while current < buckets.count {
      if let closing, closing.cost <= current { break }
      guard let node = buckets[current].popLast() else {
        current += 1
        continue
      }
      guard distance[node] == current else { continue }
      visited += 1
      if visited > maxNodes { break }
      for edge in edges(from: node) where !edge.isInterior {
        guard let step = cost(of: edge) else { continue }
        let reached = current + step
        if edge.target == block {
          if closing == nil || reached < closing!.cost { closing = (reached, edge) }
          continue
        }
        guard reached < distance[edge.target] ?? Int.max else { continue }
        distance[edge.target] = reached
        previous[edge.target] = edge
        while buckets.count <= reached { buckets.append([]) }
        buckets[reached].append(edge.target)
      }
    }
    guard let closing else { return nil }
    var edges = [closing.edge]
    var node = closing.edge.source
    while node != block, let edge = previous[node] {
      edges.append(edge)
      node = edge.source
    }
    return edges.reversed()
  }
}
