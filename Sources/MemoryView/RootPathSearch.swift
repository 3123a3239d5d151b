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
  /// The best path found: the cheapest to a true root, or to the caller's
  /// own stack when nothing else holds the block.
  public var path: HeapPath?
  /// Blocks visited.
  public var visited: Int
  /// Whether a bound stopped the search before it was complete.
  public var isTruncated: Bool
}

extension PointerGraph {
  /// Searches backwards from block `target` to a root, for the cheapest path.
  ///
  /// A step costs what `cost(source, target)` says (nil: the pointers in
  /// `source` do not hold `target`: a weak reference, a side table, a stale
  /// word the caller knows about); by default every step costs 1, so the
  /// shortest path wins. A root adds its kind's ``RootKind/penalty`` (a
  /// named global nothing, a thread's stack or thread-local storage a
  /// little: stale words there are the usual false roots); on a tie the
  /// better ``RootKind/rank`` wins. A path to a root the caller does not
  /// accept (by default only the caller's own stack,
  /// ``RootKind/callerStack(thread:)``) is kept only as a last answer. A
  /// block that is a root itself ends a path.
  ///
  /// Pointers to block starts are followed first; pointers into the middle
  /// of blocks only when that finds no root but the caller's stack (a large
  /// block attracts stale and coincidental interior values).
  ///
  /// - Parameters:
  ///   - maxNodes: the most blocks to visit.
  ///   - deadline: when to stop, as `ContinuousClock` time.
  ///   - accepts: which kinds of root answer the question; a path to
  ///     another kind is kept only as a last answer (by default every kind
  ///     but the caller's own stack).
  public func pathToRoot(
    from target: Int, maxNodes: Int = 2_000_000, deadline: ContinuousClock.Instant? = nil,
    accepts: (RootKind) -> Bool = { if case .callerStack = $0 { false } else { true } },
    cost: (_ source: Int, _ target: Int) -> Int? = { _, _ in 1 }
  ) -> RootSearchOutcome {
    let precise = pathToRoot(
      from: target, startsOnly: true, maxNodes: maxNodes, deadline: deadline, accepts: accepts, cost: cost)
    if let path = precise.path, accepts(path.root.kind) { return precise }
    if precise.isTruncated { return precise }
    var loose = pathToRoot(
      from: target, startsOnly: false, maxNodes: maxNodes, deadline: deadline, accepts: accepts, cost: cost)
    loose.visited += precise.visited
    if loose.path == nil { loose.path = precise.path }
    return loose
  }

  private func pathToRoot(
    from target: Int, startsOnly: Bool, maxNodes: Int, deadline: ContinuousClock.Instant?,
    accepts: (RootKind) -> Bool, cost: (_ source: Int, _ target: Int) -> Int?
  ) -> RootSearchOutcome {
    let count = snapshot.heap.count
    guard target >= 0, target < count else {
      return RootSearchOutcome(path: nil, visited: 0, isTruncated: false)
    }
    // Per block: the next block towards the target (-1: not reached), and the cost to the target.
    let nextTable = ScratchBuffer<Int32>()
    nextTable.fill(-1, count: count)
    let distanceTable = ScratchBuffer<Int32>()
    distanceTable.fill(Int32.max, count: count)
    let next = nextTable.base!
    let distance = distanceTable.base!
    next[target] = Int32(target)
    distance[target] = 0
    // A queue of buckets by cost (costs are small integers).
    var buckets: [[Int]] = [[target]]
    var visited = 0
    var fallback: HeapPath?
    var best: (cost: Int, path: HeapPath)?
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
    var current = 0
    while current < buckets.count {
      // Blocks this far can still tie with the best (a better-ranked root).
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
      for root in roots(of: block, startsOnly: startsOnly) {
        guard accepts(root.kind) else {
          if fallback == nil || root.kind.rank < fallback!.root.kind.rank {
            fallback = path(from: block, root: root)
          }
          continue
        }
        let total = current + root.kind.penalty
        if best == nil || total < best!.cost
          || (total == best!.cost && root.kind.rank < best!.path.root.kind.rank)
        {
          best = (total, path(from: block, root: root))
        }
      }
      guard !isRootBlock(block) else { continue }
      for source in referringBlocks(of: block, startsOnly: startsOnly) where source != target {
        guard let step = cost(source, block), step > 0 else { continue }
        let reached = current + step
        guard reached < Int(distance[source]) else { continue }
        distance[source] = Int32(reached)
        next[source] = Int32(block)
        while buckets.count <= reached { buckets.append([]) }
        buckets[reached].append(source)
      }
    }
    return RootSearchOutcome(path: best?.path ?? fallback, visited: visited, isTruncated: false)
  }
}
