import CMemoryViewTestSupport
import Glibc
import Testing

@testable import MemoryView

/// Conservative scans over hand-built C structures: who points at a block,
/// the chain back to a true root, and the mark forward from the roots.
extension CStructureTests {
  @Suite struct ReferenceGraphTests {
    private func unmask(_ masked: UInt) -> UInt { masked ^ UInt(MVT_MASK) }

    private func rootPath(to masked: UInt) throws -> (ProcessSnapshot, HeapPath) {
      let snapshot = try ProcessSnapshot()
      let graph = ReferenceGraph(snapshot: snapshot)
      let block = try #require(snapshot.heap.index(containing: unmask(masked)))
      let outcome = graph.pathToRoot(from: block)
      let path = try #require(outcome.path, "no path to a root")
      return (snapshot, path)
    }

    /// Checks that the whole list is in the graph: each node is referred to by
    /// the one before it, and the head by the global `mvt_listHead`.
    private func expectWholeList(in graph: ReferenceGraph, nodes: Int) throws {
      let heap = graph.snapshot.heap
      var node = mvt_listHeadAddress()
      var previous: Int? = nil
      var count = 0
      while node != 0 {
        let block = try #require(heap.index(containing: node))
        if let previous {
          #expect(graph.referringBlocks(of: block).contains(previous))
        } else {
          let named = graph.roots(of: block).map {
            graph.snapshot.describe(rootWordAt: $0.wordAddress, kind: $0.kind)
          }
          #expect(named.contains { $0.contains("mvt_listHead") }, "\(named)")
        }
        previous = block
        node = ProcessMemory.current.word(at: node) ?? 0
        count += 1
      }
      #expect(count == nodes)
    }

    @Test func aMallocedListHeldFromAGlobalLeadsBackToAGlobal() throws {
      // An unusual size: few stale pointers to recycled addresses of this size class.
      let last = mvt_makeList(20, 2720)
      defer { mvt_freeList() }
      let snapshot = try ProcessSnapshot()
      let graph = ReferenceGraph(snapshot: snapshot)
      try expectWholeList(in: graph, nodes: 20)
      let tail = try #require(snapshot.heap.index(containing: unmask(last)))
      let path = try #require(graph.pathToRoot(from: tail).path)
      // The chain above is complete; a stale copy of a node's address elsewhere
      // (a recycled address) can make a shorter path, which must still be real.
      expectReal(path, in: snapshot)
      #expect(path.root.kind.rank < RootKind.callerStack(thread: 0).rank)
      #expect(path.blocks.count <= 20)
      if path.blocks.count == 20, case .global = path.root.kind {
        #expect(
          snapshot.describe(rootWordAt: path.root.wordAddress, kind: path.root.kind).contains("mvt_listHead"))
      }
    }

    @Test func aBlockHeldOnlyFromAnotherThreadsStackIsHeldByThatStack() throws {
      var thread: Int32 = 0
      let held = mvt_startStackHolder(80, &thread)
      defer { mvt_stopStackHolder() }
      let (_, path) = try rootPath(to: held)
      #expect(path.root.kind == .stack(thread: thread, name: path.root.kind.threadName))
      #expect(path.blocks.count == 1)
    }

    @Test func aChainThroughMmappedChunksIsFoundLinkByLink() throws {
      // Above the (fixed) mmap threshold and larger than any arena's top chunk
      // (trimmed above 128 KiB once the threshold is fixed): mmapped.
      mvt_fixMmapThreshold()
      _ = mvt_makeMappedChain(8 << 20)
      defer { mvt_freeMappedChain() }
      let snapshot = try ProcessSnapshot()
      let graph = ReferenceGraph(snapshot: snapshot)
      let heap = snapshot.heap
      let first = try #require(heap.index(containing: mvt_mappedChainAddress()))
      let describe = { (root: RootReference) in
        snapshot.describe(rootWordAt: root.wordAddress, kind: root.kind)
      }
      #expect(graph.roots(of: first).map(describe).contains { $0.contains("mvt_mappedChain") })
      var chain = [first]
      while chain.count < 3, let next = snapshot.memory.word(at: heap[chain.last!].address + 8) {
        let block = try #require(heap.index(containing: next))
        #expect(graph.referringBlocks(of: block).contains(chain.last!))
        chain.append(block)
      }
      #expect(chain.count == 3)
      #expect(chain.allSatisfy { heap[$0].origin == .mmapped }, "\(chain.map { heap[$0] })")
      let path = try #require(graph.pathToRoot(from: chain[2]).path)
      expectReal(path, in: snapshot)
      #expect(path.blocks.count <= 3)
    }

    @Test func aPointerIntoTheMiddleOfABlockHoldsIt() throws {
      let masked = mvt_makeInteriorPointer(2928, 136)
      defer { mvt_freeInteriorPointer() }
      let snapshot = try ProcessSnapshot()
      let graph = ReferenceGraph(snapshot: snapshot)
      let block = try #require(snapshot.heap.index(containing: unmask(masked)))
      let describe = { (root: RootReference) in
        snapshot.describe(rootWordAt: root.wordAddress, kind: root.kind)
      }
      #expect(graph.roots(of: block).map(describe).contains { $0.contains("mvt_interiorPointer") })
      #expect(
        !graph.roots(of: block, startsOnly: true).map(describe).contains {
          $0.contains("mvt_interiorPointer")
        })
      // A stale copy of the block's start elsewhere wins over the interior pointer; either is real.
      let path = try #require(graph.pathToRoot(from: block).path)
      expectReal(path, in: snapshot)
    }

    /// Checks that every hop of `path` is in memory now: the root word points
    /// into the first block, each block holds a pointer into the next.
    private func expectReal(_ path: HeapPath, in snapshot: ProcessSnapshot) {
      let heap = snapshot.heap
      if path.root.wordAddress != 0, let word = snapshot.memory.word(at: path.root.wordAddress) {
        #expect(heap[path.blocks[0]].range.contains(word))
      }
      for (source, target) in zip(path.blocks, path.blocks.dropFirst()) {
        let block = heap[source]
        let words = snapshot.memory.bytes(at: block.address, count: Int(block.size))
        let holds = words.withUnsafeBytes { raw in
          (0..<raw.count / 8).contains {
            heap[target].range.contains(raw.load(fromByteOffset: $0 * 8, as: UInt.self))
          }
        }
        #expect(
          holds,
          "\(block) holds no pointer into \(heap[target]) (path \(path.blocks.map { heap[$0] }), root \(path.root))"
        )
      }
    }

    @Test func aBlockOnlyTheCallerHoldsHasNoTruePathAndEveryPathGivenIsReal() throws {
      // Only the masked address exists in our frames; a stale copy of the plain
      // address elsewhere (a recycled address) can still make a path: it must be real.
      let masked = mvt_makeUnreferenced(3056)
      defer { mvt_freeMasked(masked) }
      let last = mvt_makeList(3, 2768)
      defer { mvt_freeList() }
      let snapshot = try ProcessSnapshot()
      let graph = ReferenceGraph(snapshot: snapshot)
      let lonely = try #require(snapshot.heap.index(containing: unmask(masked)))
      if let path = graph.pathToRoot(from: lonely).path { expectReal(path, in: snapshot) }
      let tail = try #require(snapshot.heap.index(containing: unmask(last)))
      #expect(graph.reachableFromRoots().contains(tail))
      let path = try #require(graph.pathToRoot(from: tail).path)
      expectReal(path, in: snapshot)
    }

    @Test func theForwardIndexAndTheBackwardIndexAgree() throws {
      let last = mvt_makeList(5, 64)
      defer { mvt_freeList() }
      let snapshot = try ProcessSnapshot()
      let graph = ReferenceGraph(snapshot: snapshot)
      let tail = try #require(snapshot.heap.index(containing: unmask(last)))
      for source in graph.referringBlocks(of: tail) {
        #expect(graph.referencedBlocks(from: source).contains(tail))
      }
      #expect(graph.referringBlocks(of: tail).count >= 1)
    }

    @Test func scanningWhileOtherThreadsAllocateAndFreeNeitherCrashesNorLosesAHeldList() throws {
      _ = mvt_makeList(30, 2736)
      defer { mvt_freeList() }
      mvt_startChurn(3)
      defer { mvt_stopChurn() }
      for _ in 0..<3 {
        let snapshot = try ProcessSnapshot()
        try expectWholeList(in: ReferenceGraph(snapshot: snapshot), nodes: 30)
      }
    }
  }
}

extension RootKind {
  /// The thread name a stack root carries (for comparisons in tests).
  var threadName: String {
    if case .stack(_, let name) = self { return name }
    return ""
  }
}
