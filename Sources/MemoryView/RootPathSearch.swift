/// A chain of blocks from a root to a block: the root word points into
/// `blocks[0]`, each block holds a pointer into the next, the last is the
/// block asked about.
public struct HeapPath: Sendable, Hashable {
  /// The root that holds the first block.
  public var root: RootReference
  /// The blocks, from the one the root holds to the target.
  public var blocks: [Int]
  /// Whether the search had to follow pointers into the middle of blocks
  /// (it does only when pointers to block starts reach no root).
  public var usesInteriorPointers: Bool
}

/// The outcome of a search back to a root.
public struct RootSearchOutcome: Sendable {
  /// The best path found: the shortest to a root of the best rank among the
  /// shortest, or to the caller's own stack when nothing else holds the block.
  public var path: HeapPath?
  /// Blocks visited.
  public var visited: Int
  /// Whether a bound stopped the search before it was complete.
  public var isTruncated: Bool
}

extension ReferenceGraph {
  /// Searches backwards, breadth-first, from block `target` to a root.
  ///
  /// Pointers to block starts are followed first; pointers into the middle
  /// of blocks only when that finds no root but the caller's stack (a large
  /// block attracts stale and coincidental interior values).
  ///
  /// At each distance the roots found are compared by ``RootKind/rank``; a
  /// path to the caller's own stack (``RootKind/callerStack(thread:)``) is
  /// kept only as a last answer, while the search goes on for a true root.
  ///
  /// - Parameters:
  ///   - maxNodes: the most blocks to visit.
  ///   - deadline: when to stop, as `ContinuousClock` time.
  ///   - admit: whether the pointer(s) in block `source` into block `target`
  ///     hold it (false: a weak reference, a side table, a stale word the
  ///     caller knows about). Called at most once per pair.
  public func pathToRoot(
    from target: Int, maxNodes: Int = 2_000_000, deadline: ContinuousClock.Instant? = nil,
    admit: (_ source: Int, _ target: Int) -> Bool = { _, _ in true }
  ) -> RootSearchOutcome {
    let precise = pathToRoot(
      from: target, startsOnly: true, maxNodes: maxNodes, deadline: deadline, admit: admit)
    if let path = precise.path, path.root.kind.rank != RootKind.callerStack(thread: 0).rank { return precise }
    if precise.isTruncated { return precise }
    var loose = pathToRoot(
      from: target, startsOnly: false, maxNodes: maxNodes, deadline: deadline, admit: admit)
    loose.visited += precise.visited
    if loose.path == nil { loose.path = precise.path }
    return loose
  }

  private func pathToRoot(
    from target: Int, startsOnly: Bool, maxNodes: Int, deadline: ContinuousClock.Instant?,
    admit: (_ source: Int, _ target: Int) -> Bool
  ) -> RootSearchOutcome {
    let count = snapshot.heap.count
    guard target >= 0, target < count else {
      return RootSearchOutcome(path: nil, visited: 0, isTruncated: false)
    }
    // The next block towards the target, per visited block (-1: not visited).
    let next = ScratchBuffer<Int32>()
    next.fill(-1, count: count)
    next[target] = Int32(target)
    var frontier = [target]
    var visited = 0
    var fallback: HeapPath?
    let clock = ContinuousClock()
    func path(from block: Int, root: RootReference) -> HeapPath {
      var blocks = [block]
      var current = block
      while current != target {
        current = Int(next[current])
        blocks.append(current)
      }
      return HeapPath(root: root, blocks: blocks, usesInteriorPointers: !startsOnly)
    }
    while !frontier.isEmpty {
      var best: (rank: Int, block: Int, root: RootReference)?
      for block in frontier {
        for root in roots(of: block, startsOnly: startsOnly) where best == nil || root.kind.rank < best!.rank
        {
          best = (root.kind.rank, block, root)
        }
      }
      if let best {
        if case .callerStack = best.root.kind {
          if fallback == nil { fallback = path(from: best.block, root: best.root) }
        } else {
          return RootSearchOutcome(
            path: path(from: best.block, root: best.root), visited: visited, isTruncated: false)
        }
      }
      var following: [Int] = []
      // A root block (registered, thread-local, the caller's task) ends a path: not expanded.
      for block in frontier where !isRootBlock(block) {
        visited += 1
        if visited > maxNodes || (visited & 1023 == 0 && deadline.map { clock.now > $0 } == true) {
          return RootSearchOutcome(path: fallback, visited: visited, isTruncated: true)
        }
        for source in referringBlocks(of: block, startsOnly: startsOnly) where next[source] < 0 {
          guard admit(source, block) else { continue }
          next[source] = Int32(block)
          following.append(source)
        }
      }
      frontier = following
    }
    return RootSearchOutcome(path: fallback, visited: visited, isTruncated: false)
  }
}
