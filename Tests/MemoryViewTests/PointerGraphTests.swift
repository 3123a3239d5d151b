import CMemoryViewTestSupport
import Glibc
import LeakLabTestSupport
import Testing

@testable import MemoryView

/// Conservative scans over hand-built C structures: who points at a block,
/// the chain back to a true root, and the mark forward from the roots.
///
/// A conservative scan also sees stale copies of an address in memory that
/// was freed and reused, so in a process that keeps running the tests check
/// that the real chain is in the graph and that a search ends at a true
/// root; a stopped process (a forked child) gives paths that can be checked
/// word by word.
extension CStructureTests {
  @Suite(.memoryViewSupported) struct PointerGraphTests {
    private func unmask(_ masked: UInt) -> UInt { masked ^ UInt(MVT_MASK) }

    private func describe(_ root: RootReference, in snapshot: ProcessSnapshot) -> String {
      snapshot.describe(rootWordAt: root.wordAddress, kind: root.kind)
    }

    /// Checks that the whole list is in the graph: each node is referred to by
    /// the one before it, and the head by the global `mvt_listHead`.
    private func expectWholeList(in graph: PointerGraph, head: UInt, nodes: Int) throws {
      let snapshot = graph.snapshot
      var node = head
      var previous: Int? = nil
      var count = 0
      while node != 0, count < nodes + 1 {
        let block = try #require(
          snapshot.heap.index(containing: node),
          "\(snapshot.heap.report) \(snapshot.heap.heapRanges.map { hex($0.lowerBound) + "-" + hex($0.upperBound) }) region \(snapshot.map.region(containing: node)?.description ?? "none")"
        )
        if let previous {
          #expect(graph.referringBlocks(of: block).contains(previous))
        } else {
          let named = graph.roots(of: block).map { describe($0, in: snapshot) }
          #expect(named.contains { $0.contains("mvt_listHead") }, "\(named)")
        }
        previous = block
        node = snapshot.memory.word(at: node) ?? 0
        count += 1
      }
      #expect(count == nodes)
    }

    /// Checks that every hop of `path` is in memory: the root word points
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
        #expect(holds, "\(block) holds no pointer into \(heap[target])")
      }
    }

    @Test func aMallocedListHeldFromAGlobalIsInTheGraphAndLeadsToATrueRoot() throws {
      let last = mvt_makeList(20, 2720)
      defer { mvt_freeList() }
      let snapshot = try ProcessSnapshot()
      let graph = PointerGraph(snapshot: snapshot)
      try expectWholeList(in: graph, head: mvt_listHeadAddress(), nodes: 20)
      let tail = try #require(snapshot.heap.index(containing: unmask(last)))
      let path = try #require(graph.pathToRoot(from: tail).path)
      #expect(path.root.kind.rank < RootKind.callerStack(thread: 0).rank)
      #expect(path.blocks.count <= 20)
    }

    @Test func aStoppedProcessIsReadLikeOurOwnAndItsPathsAreRealWordByWord() throws {
      var masked: UInt = 0
      let child = mvt_forkStoppedListChild(20, 2720, &masked)
      try #require(child > 0)
      defer { mvt_killChild(child) }
      let snapshot = try ProcessSnapshot(pid: child)
      #expect(!snapshot.threads.threads.contains { $0.isCallingThread })
      let graph = PointerGraph(snapshot: snapshot)
      let global = snapshot.images.images.lazy.compactMap { $0.address(ofSymbol: "mvt_listHead") }.first
      let globalAddress = try #require(global)
      let head = try #require(snapshot.memory.word(at: globalAddress))
      try expectWholeList(in: graph, head: head, nodes: 20)
      let tail = try #require(snapshot.heap.index(containing: unmask(masked)))
      let path = try #require(graph.pathToRoot(from: tail).path)
      expectReal(path, in: snapshot)
      #expect(path.blocks.count <= 20)
      // The child is a fork of this multithreaded test process: any global of
      // ours may hold a stale word that now points into a node, and is as true
      // a root as `mvt_listHead` (CI once found `GraphDrawingTests.heads`'s
      // neighbourhood). What must hold: the root is a global, not a stack.
      if path.blocks.count == 20 {
        #expect(
          path.root.kind.rank == RootKind.global(image: "").rank, "\(describe(path.root, in: snapshot))")
      }
      #expect(graph.reachableFromRoots().contains(tail))
    }

    @Test func aBlockHeldOnlyFromAnotherThreadsStackIsHeldByThatStack() throws {
      var thread: Int32 = 0
      let held = mvt_startStackHolder(80, &thread)
      defer { mvt_stopStackHolder() }
      let snapshot = try ProcessSnapshot()
      let graph = PointerGraph(snapshot: snapshot)
      let block = try #require(snapshot.heap.index(containing: unmask(held)))
      let path = try #require(graph.pathToRoot(from: block).path)
      guard case .stack(let holder, _) = path.root.kind else {
        Issue.record("expected a thread's stack, got \(path.root.kind)")
        return
      }
      #expect(holder == thread)
      #expect(path.blocks.count == 1)
    }

    @Test func aChainThroughMmappedChunksIsFoundLinkByLink() throws {
      // Larger than an arena's heap can be (64 MiB): mmapped, whatever the
      // thresholds and the tops are (pages never touched cost nothing).
      _ = mvt_makeMappedChain(65 << 20)
      defer { mvt_freeMappedChain() }
      let snapshot = try ProcessSnapshot()
      let graph = PointerGraph(snapshot: snapshot)
      let heap = snapshot.heap
      let first = try #require(heap.index(containing: mvt_mappedChainAddress()))
      #expect(
        graph.roots(of: first).map { describe($0, in: snapshot) }.contains { $0.contains("mvt_mappedChain") })
      var chain = [first]
      while chain.count < 3, let next = snapshot.memory.word(at: heap[chain.last!].address + 8) {
        let block = try #require(heap.index(containing: next))
        #expect(graph.referringBlocks(of: block).contains(chain.last!))
        chain.append(block)
      }
      #expect(chain.count == 3)
      #expect(chain.allSatisfy { heap[$0].origin == .mmapped }, "\(chain.map { heap[$0] })")
      let path = try #require(graph.pathToRoot(from: chain[2]).path)
      #expect(path.root.kind.rank < RootKind.callerStack(thread: 0).rank)
      #expect(path.blocks.count <= 3)
    }

    @Test func aPointerIntoTheMiddleOfABlockHoldsIt() throws {
      let masked = mvt_makeInteriorPointer(2928, 136)
      defer { mvt_freeInteriorPointer() }
      let snapshot = try ProcessSnapshot()
      let graph = PointerGraph(snapshot: snapshot)
      let block = try #require(snapshot.heap.index(containing: unmask(masked)))
      #expect(
        graph.roots(of: block).map { describe($0, in: snapshot) }.contains {
          $0.contains("mvt_interiorPointer")
        })
      #expect(
        !graph.roots(of: block, startsOnly: true).map { describe($0, in: snapshot) }.contains {
          $0.contains("mvt_interiorPointer")
        })
      let path = try #require(graph.pathToRoot(from: block).path)
      #expect(path.root.kind.rank < RootKind.callerStack(thread: 0).rank)
    }

    @Test func theMarkFromTheRootsReachesAHeldListAndTheIndexesAgree() throws {
      let last = mvt_makeList(5, 2768)
      defer { mvt_freeList() }
      let snapshot = try ProcessSnapshot()
      let graph = PointerGraph(snapshot: snapshot)
      let tail = try #require(snapshot.heap.index(containing: unmask(last)))
      #expect(graph.reachableFromRoots().contains(tail))
      #expect(!graph.referringBlocks(of: tail).isEmpty)
      for source in graph.referringBlocks(of: tail) {
        #expect(graph.referencedBlocks(from: source).contains(tail))
      }
    }

    /// A holder that another thread replaces without pause (as libdispatch
    /// moves its timer heap's array) is in a frozen copy at the instant of
    /// the fork: the path is the global, the holder, the block, every time.
    /// (A snapshot of the running process lost the path in 4 of 20 tries:
    /// the holder the global points at was not a block of its walk.)
    @Test func aBlockWhoseHolderMovesWithoutPauseIsHeldFromItsGlobalInAFrozenCopy() throws {
      let target = mvt_startMovingHolder(200)
      defer { mvt_stopMovingHolder() }
      for _ in 0..<5 {
        let snapshot = try ProcessSnapshot.ofFrozenCopy()
        #expect(snapshot.isFrozenCopy && snapshot.pid != getpid())
        let graph = PointerGraph(snapshot: snapshot)
        let block = try #require(snapshot.heap.index(containing: unmask(target)))
        let path = try #require(graph.pathToRoot(from: block).path)
        expectReal(path, in: snapshot)
        #expect(path.blocks.count == 2)
        #expect(
          describe(path.root, in: snapshot).contains("mvt_movingHolder"),
          "\(describe(path.root, in: snapshot))")
      }
    }

    @Test func aFrozenCopyEndsWithItsSnapshot() throws {
      var child: pid_t = 0
      do {
        let snapshot = try ProcessSnapshot.ofFrozenCopy()
        child = snapshot.pid
        #expect(kill(child, 0) == 0)
        #expect(snapshot.heap.count > 0)
      }
      #expect(child > 0 && kill(child, 0) == -1 && errno == ESRCH)
    }

    @Test func scanningWhileOtherThreadsAllocateAndFreeNeitherCrashesNorLosesAHeldList() throws {
      _ = mvt_makeList(30, 2736)
      defer { mvt_freeList() }
      mvt_startChurn(3)
      defer { mvt_stopChurn() }
      for _ in 0..<3 {
        let snapshot = try ProcessSnapshot()
        // Blocks in address order, none inside another (heaps that changed
        // while walked once overlapped: the word scanner trapped).
        let heap = snapshot.heap
        let ordered = (1..<max(heap.count, 1)).allSatisfy {
          heap[$0 - 1].range.upperBound <= heap[$0].address
        }
        #expect(ordered, "\(heap.report)")
        try expectWholeList(in: PointerGraph(snapshot: snapshot), head: mvt_listHeadAddress(), nodes: 30)
      }
    }
  }
}
