import CMemoryView
import MemoryView

extension HeapModel {
  /// A root word that points into a block.
  public struct RootEdge: Sendable, Hashable {
    /// What holds the word: a global, a thread's stack or TLS, a register.
    public var kind: RootKind
    /// Where the word is (0 for a register, or a block that is a root itself).
    public var wordAddress: UInt
    /// The block it points into.
    public var target: Int
    /// Whether it points into the middle of the block.
    public var isInterior: Bool
    /// Into a Swift object: whether it is one of the references the object's
    /// strong count leaves room for (see ``HeapModel/admitUncountedReferences()``).
    public var isAdmitted: Bool
  }

  /// Scans `ranges` and the snapshot's register words and root blocks: every
  /// word that points into a live block is a root edge.
  func scanRoots(_ ranges: [RootRange]) {
    var edges: [(target: UInt32, address: UInt, origin: UInt32)] = []
    let reader = WindowedReader(memory: snapshot.memory, capacity: Builder.windowSize)
    var index = snapshot.heap.blockIndex.raw
    let positions = ScratchBuffer<UInt32>(capacity: Builder.windowSize / 8)
    let targets = ScratchBuffer<UInt32>(capacity: Builder.windowSize / 8)
    for range in ranges {
      let origin = UInt32(rootKinds.count)
      rootKinds.append(range.kind)
      var address = (range.range.lowerBound + 7) & ~7
      while address + 8 <= range.range.upperBound {
        let copied = reader.load(address, limit: range.range.upperBound)
        guard copied >= 8, let bytes = reader.bytes.baseAddress else {
          address = (address + 4096) & ~4095  // an unreadable page: skip it
          continue
        }
        figures.rootBytes += copied
        let words = bytes.assumingMemoryBound(to: UInt.self)
        let hits = mv_scanRootWords(&index, words, copied / 8, positions.base, targets.base)
        for hit in 0..<hits {
          edges.append((targets.base![hit], address + UInt(positions.base![hit]) * 8, origin))
        }
        address += UInt(copied / 8 * 8)
      }
    }
    for word in snapshot.roots.words {
      let origin = UInt32(rootKinds.count)
      rootKinds.append(word.kind)
      let found = mv_lookUp(&index, word.value)
      if found >= 0 { edges.append((UInt32(truncatingIfNeeded: found), 0, origin)) }
    }
    for (block, kind) in snapshot.roots.blocks {
      rootBlocks[block] = rootKinds.count
      rootKinds.append(kind)
    }
    edges.sort { $0.target & ~Self.interiorBit < $1.target & ~Self.interiorBit }
    // Free memory holds nothing; a task's frames are held by their task
    // alone. A slab no live task claims (a task torn down as the program
    // exits, its thread still holding it) is held as any block is.
    for edge in edges {
      let target = Int(edge.target & ~Self.interiorBit)
      let targetKind = kind(of: target)
      guard !targetKind.isFree, targetKind != .taskFrames || slabTasks[target] == nil else { continue }
      rootTargets.append(edge.target)
      rootAddresses.append(edge.address)
      rootOrigins.append(edge.origin)
      rootAdmitted.append(0)
    }
    figures.rootEdges = rootTargets.count
  }

  /// The root words that point into `block`, and the block itself when it is a root.
  public func roots(of block: Int) -> [RootEdge] {
    var result: [RootEdge] = []
    if let root = rootBlocks[block] {
      result.append(
        RootEdge(kind: rootKinds[root], wordAddress: 0, target: block, isInterior: false, isAdmitted: true))
    }
    let count = rootTargets.count
    guard count > 0, let targets = rootTargets.base else { return result }
    var low = 0
    var high = count
    while low < high {
      let middle = (low + high) / 2
      if Int(targets[middle] & ~Self.interiorBit) < block { low = middle + 1 } else { high = middle }
    }
    while low < count, Int(targets[low] & ~Self.interiorBit) == block {
      result.append(
        RootEdge(
          kind: rootKinds[Int(rootOrigins.base![low])], wordAddress: rootAddresses.base![low], target: block,
          isInterior: targets[low] & Self.interiorBit != 0, isAdmitted: rootAdmitted.base![low] != 0))
      low += 1
    }
    return result
  }

  /// Whether block `block` is a root itself (dynamic TLS, a registered root).
  public func isRootBlock(_ block: Int) -> Bool { rootBlocks[block] != nil }

  /// Whether root edge `edge` can hold its target: into a Swift object only
  /// when its strong count leaves room for it.
  public func holdsMemory(_ edge: RootEdge) -> Bool {
    !kind(of: edge.target).isSwiftObject || edge.isAdmitted
  }

  /// Calls `body` with every root edge, in target order, and whether it holds its target.
  func forEachRootEdge(_ body: (_ target: Int, _ isInterior: Bool, _ origin: Int, _ holds: Bool) -> Void) {
    let count = rootTargets.count
    guard count > 0 else { return }
    let kinds = self.kinds.base!
    for position in 0..<count {
      let target = rootTargets.base![position]
      let index = Int(target & ~Self.interiorBit)
      let holds =
        rootAdmitted.base![position] != 0 || BlockKind(rawValue: kinds[index])?.isSwiftObject != true
      body(index, target & Self.interiorBit != 0, Int(rootOrigins.base![position]), holds)
    }
  }
}

extension HeapModel {
  /// In our own process, the blocks of the Swift task that took the snapshot
  /// and of every task of its tree (its parent, its children, theirs, as
  /// the children's fragments and the parents' status records link them,
  /// ``parentTasks``): task objects and their allocators' slabs, where async
  /// frames keep the caller's (and its test harness's) local variables.
  /// Like the calling thread's stack, they are roots of the weakest kind,
  /// the caller's own. (A test's victim was "held" by a slot of a harness
  /// task's frames, reached from libdispatch's timer heap through Swift
  /// Testing's table of running tasks, 1 fresh-clone run in 10: the tree
  /// was then the caller alone, since a task's own words are no edges of
  /// the model. A test's tree is now seven tasks, from `Runner.main()` down.)
  func markCallerTask() {
    let heap = snapshot.heap
    let address = snapshot.callerTask
    guard address != 0, let containing = heap.index(containing: address) else { return }
    var tasks: [Int]
    var blocks: [Int] = []
    if heap.startPointer[containing] == address, kind(of: containing) == .task {
      tasks = [containing]
    } else if kind(of: containing) == .taskFrames {
      // An `async let`'s task lives in its parent's frames.
      tasks = slabTasks[containing] ?? []
      blocks.append(containing)
    } else {
      return
    }
    var children: [Int: [Int]] = [:]
    for (child, parent) in parentTasks { children[parent, default: []].append(child) }
    var seen = Set(tasks)
    var position = 0
    while position < tasks.count, tasks.count < 4096 {
      let task = tasks[position]
      position += 1
      for next in (children[task] ?? []) + (parentTasks[task].map { [$0] } ?? [])
      where seen.insert(next).inserted {
        tasks.append(next)
      }
    }
    blocks += tasks
    for (slab, owners) in slabTasks where owners.contains(where: seen.contains) { blocks.append(slab) }
    let caller = rootKinds.count
    rootKinds.append(.callerStack(thread: snapshot.threads.threads.first { $0.isCallingThread }?.id ?? 0))
    for block in blocks where rootBlocks[block] == nil { rootBlocks[block] = caller }
  }
}
