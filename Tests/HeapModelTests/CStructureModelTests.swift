import CMemoryViewTestSupport
import Foundation
import Glibc
import LeakLabTestSupport
import MemoryView
import Testing

@testable import HeapModel

/// The heap model over hand-built C structures: who points at a block, the
/// chain back to a true root, the mark forward from the roots. C memory is
/// read conservatively: any word that points into a block is an edge.
///
/// In a process of its own (which path from a root is cheapest depends on
/// what else lives in the process), one structure at a time.
@Suite(.serialized, .memoryViewSupported, .inProcessOfItsOwn("CStructureModelTests"))
struct CStructureModelTests {
  private func unmask(_ masked: UInt) -> UInt { masked ^ UInt(MVT_MASK) }

  /// Checks that the whole list is in the model: each node is referred to by
  /// the one before it, and the head by the global `mvt_listHead`.
  private func expectWholeList(in model: HeapModel, head: UInt, nodes: Int) throws {
    let snapshot = model.snapshot
    var node = head
    var previous: Int? = nil
    var count = 0
    while node != 0, count < nodes + 1 {
      let block = try #require(snapshot.heap.index(containing: node), "\(snapshot.heap.report)")
      if let previous {
        #expect(model.edges(into: block).contains { $0.source == previous && $0.kind == .conservative })
      } else {
        let named = model.roots(of: block).map { model.describe($0) }
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
  private func expectReal(_ path: HeapModel.RootPath, in model: HeapModel) {
    let snapshot = model.snapshot
    let heap = snapshot.heap
    if path.root.wordAddress != 0, let word = snapshot.memory.word(at: path.root.wordAddress) {
      #expect(heap[path.blocks[0]].range.contains(word))
    }
    for edge in path.edges {
      let word = snapshot.memory.word(at: heap[edge.source].address + UInt(edge.word) * 8) ?? 0
      #expect(heap[edge.target].range.contains(word), "\(heap[edge.source]) word \(edge.word)")
    }
  }

  /// For a failure: the path found, then each block of the chain from
  /// `mvt_ownerHead` with the typed blocks whose word points at its start
  /// (what makes a plain block owned, see ``HeapModel/cost(of:)``).
  private func ownerChainReport(_ path: HeapModel.RootPath, in model: HeapModel) -> String {
    let snapshot = model.snapshot
    var lines = ["found: \(model.describe(path.root)) \(path.blocks.map { model.describe($0) })"]
    let global = snapshot.images.images.lazy.compactMap { $0.address(ofSymbol: "mvt_ownerHead") }.first
    var address = global.flatMap { snapshot.memory.word(at: $0) } ?? 0
    while lines.count < 6, let block = model.block(containing: address) {
      let owners = model.edges(into: block).filter { edge in
        let kind = model.kind(of: edge.source)
        return !edge.isInterior && (kind.isSwiftObject || kind == .cObject || kind == .block)
      }
      let named = owners.map { "\(model.describe($0.source)) word \($0.word)" }
      lines.append("\(model.describe(block)) \(model.kind(of: block)), typed referrers: \(named)")
      address = snapshot.memory.word(at: snapshot.heap[block].address) ?? 0
    }
    return lines.joined(separator: "\n")
  }

  /// Whether a root is a global: the tests that ask for a global's path
  /// accept no other root.
  static func isGlobal(_ kind: RootKind) -> Bool {
    if case .global = kind { return true }
    return false
  }

  @Test func aMallocedListHeldFromAGlobalIsHeldFromThatGlobalLinkByLink() throws {
    let last = mvt_makeList(20, 2720)
    defer { mvt_freeList() }
    let model = try HeapModel(snapshot: try ProcessSnapshot.ofFrozenCopy())
    try expectWholeList(in: model, head: mvt_listHeadAddress(), nodes: 20)
    let tail = try #require(model.block(containing: unmask(last)))
    // Globals only: another thread's stack keeps stale slots that point into
    // a list the same sizes at the same addresses built by an earlier test
    // (a worker's slot into node 3 was a cheaper path than the global's
    // twenty links, in a fresh-clone run under load).
    let path = try #require(model.pathToRoot(from: tail, accepts: Self.isGlobal).path)
    expectReal(path, in: model)
    #expect(path.blocks.count == 20)
    #expect(model.describe(path.root).contains("mvt_listHead"), "\(model.describe(path.root))")
    #expect(model.reachableFromRoots().contains(tail))
  }

  @Test func aStoppedProcessIsReadLikeOurOwn() throws {
    var masked: UInt = 0
    let child = mvt_forkStoppedListChild(20, 2720, &masked)
    try #require(child > 0)
    defer { mvt_killChild(child) }
    let snapshot = try ProcessSnapshot(pid: child)
    #expect(!snapshot.threads.threads.contains { $0.isCallingThread })
    let model = try HeapModel(snapshot: snapshot)
    let global = snapshot.images.images.lazy.compactMap { $0.address(ofSymbol: "mvt_listHead") }.first
    let globalAddress = try #require(global)
    let head = try #require(snapshot.memory.word(at: globalAddress))
    try expectWholeList(in: model, head: head, nodes: 20)
    let tail = try #require(model.block(containing: unmask(masked)))
    // The child is a fork of this test process: any global or thread-local
    // word of ours may hold a stale copy that now points into a node (C
    // memory holds what it holds; under load one in twenty runs found such a
    // word in thread-local storage): what this test asks is that the
    // stopped process is read as our own is, so the path is a real chain of
    // words in the child's memory, whatever root it starts at. The global's
    // own path is asked where the process's memory is known
    // (aMallocedListHeldFromAGlobalIsHeldFromThatGlobalLinkByLink).
    let path = try #require(model.pathToRoot(from: tail, accepts: { _ in true }).path)
    expectReal(path, in: model)
    #expect(model.reachableFromRoots().contains(tail))
  }

  @Test func aBlockHeldOnlyFromAnotherThreadsStackIsHeldByThatStack() throws {
    var thread: Int32 = 0
    let held = mvt_startStackHolder(80, &thread)
    defer { mvt_stopStackHolder() }
    let model = try HeapModel(snapshot: try ProcessSnapshot.ofFrozenCopy())
    let block = try #require(model.block(containing: unmask(held)))
    let path = try #require(model.pathToRoot(from: block, accepts: { _ in true }).path)
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
    let model = try HeapModel(snapshot: try ProcessSnapshot.ofFrozenCopy())
    let heap = model.snapshot.heap
    let first = try #require(heap.index(containing: mvt_mappedChainAddress()))
    #expect(model.roots(of: first).map { model.describe($0) }.contains { $0.contains("mvt_mappedChain") })
    var chain = [first]
    while chain.count < 3, let next = model.snapshot.memory.word(at: heap[chain.last!].address + 8) {
      let block = try #require(heap.index(containing: next))
      #expect(model.edges(into: block).contains { $0.source == chain.last! })
      chain.append(block)
    }
    #expect(chain.count == 3)
    #expect(chain.allSatisfy { heap[$0].origin == .mmapped }, "\(chain.map { heap[$0] })")
    let path = try #require(model.pathToRoot(from: chain[2], accepts: Self.isGlobal).path)
    #expect(path.blocks == chain)
  }

  @Test func aPointerIntoTheMiddleOfABlockHoldsIt() throws {
    let masked = mvt_makeInteriorPointer(2928, 136)
    defer { mvt_freeInteriorPointer() }
    let model = try HeapModel(snapshot: try ProcessSnapshot.ofFrozenCopy())
    let block = try #require(model.block(containing: unmask(masked)))
    let roots = model.roots(of: block).filter { model.describe($0).contains("mvt_interiorPointer") }
    #expect(roots.count == 1 && roots[0].isInterior)
    let path = try #require(model.pathToRoot(from: block, accepts: Self.isGlobal).path)
    #expect(model.describe(path.root).contains("mvt_interiorPointer"))
    #expect(model.reachableFromRoots().contains(block))
  }

  /// A plain block's owner is the object that points at it: a word of a
  /// large plain table into it (a table's unused tail keeps stale words)
  /// is a path only when the owner has none.
  @Test func aPlainBlockIsHeldThroughTheObjectThatOwnsItNotATablesWord() throws {
    let masked = mvt_makeOwnedBlockAndStaleTable()
    defer { mvt_freeOwnedBlock() }
    try expectHeldThroughItsOwner(masked)
    mvt_dropOwnersWord()
    let model = try HeapModel(snapshot: try ProcessSnapshot.ofFrozenCopy())
    let block = try #require(model.block(containing: unmask(masked)))
    let path = try #require(model.pathToRoot(from: block, accepts: Self.isGlobal).path)
    #expect(model.describe(path.root).contains("mvt_staleTable"), "\(model.describe(path.root))")
    #expect(path.blocks.count == 2)
  }

  /// A word of the runtime's metadata memory that points out of it is never
  /// a step of a path, so it makes no owner either: a stale word in an
  /// empty bucket of the type-name cache's table (a C object to the model
  /// when its first key is a type's metadata) at the start of a link of the
  /// owner's chain made that link "owned", and the table's word won.
  @Test func aStaleWordInARuntimeCachesTableMakesNoOwner() throws {
    let masked = mvt_makeOwnedBlockAndStaleTable()
    defer { mvt_freeOwnedBlock() }
    mvt_holdCacheTableWithStaleWordToALink()
    defer { mvt_releaseCacheTable() }
    try expectHeldThroughItsOwner(masked)
  }

  /// Checks that the owned block (`masked`) of `mvt_makeOwnedBlockAndStaleTable`
  /// is held through its owner's chain of five blocks from `mvt_ownerHead`.
  private func expectHeldThroughItsOwner(_ masked: UInt) throws {
    let model = try HeapModel(snapshot: try ProcessSnapshot.ofFrozenCopy())
    let block = try #require(model.block(containing: unmask(masked)))
    let path = try #require(model.pathToRoot(from: block, accepts: Self.isGlobal).path)
    expectReal(path, in: model)
    #expect(
      model.describe(path.root).contains("mvt_ownerHead") && path.blocks.count == 5,
      "\(ownerChainReport(path, in: model))")
  }

  final class Planted {}

  /// CoreFoundation's table of hash callbacks holds function pointers up to
  /// its count and whatever the block held before past it: no word of it
  /// holds a heap block (here one planted past the count points at an object).
  @Test func coreFoundationsTableOfHashCallbacksHoldsNothing() throws {
    // A run loop is CoreFoundation's, with CF dictionaries and sets: their
    // callbacks are registered, the table exists.
    _ = RunLoop.current
    let images = ImageList(map: try MemoryMap(pid: getpid()), memory: .current)
    let foundation = try #require(images.images.first { $0.name.hasPrefix("libFoundation.so") })
    let pointer = try #require(foundation.address(ofSymbol: "CFBasicHashCallBackPtrs", kinds: .object))
    let table = try #require(
      UnsafeMutablePointer<UInt>(bitPattern: ProcessMemory.current.word(at: pointer) ?? 0))
    let planted = Planted()
    let unused = 250  // of 256 entries; CF has registered a dozen callbacks
    let before = table[unused]
    table[unused] = UInt(bitPattern: Unmanaged.passUnretained(planted).toOpaque())
    defer { table[unused] = before }
    let model = try HeapModel(snapshot: try ProcessSnapshot.ofFrozenCopy())
    let block = try #require(model.block(containing: UInt(bitPattern: table)))
    #expect(model.kind(of: block) == .bytes)
    #expect(model.edges(from: block).isEmpty, "\(model.edges(from: block))")
    withExtendedLifetime(planted) {}
  }

  @Test func theIndexesAgreeBothWays() throws {
    let last = mvt_makeList(5, 2768)
    defer { mvt_freeList() }
    let model = try HeapModel(snapshot: try ProcessSnapshot.ofFrozenCopy())
    let tail = try #require(model.block(containing: unmask(last)))
    let into = model.edges(into: tail)
    #expect(!into.isEmpty)
    for edge in into { #expect(model.edges(from: edge.source).contains(edge)) }
  }

  /// A holder that another thread replaces without pause (as libdispatch
  /// moves its timer heap's array) is in a frozen copy at the instant of
  /// the fork: the path is the global, the holder, the block, every time.
  @Test func aBlockWhoseHolderMovesWithoutPauseIsHeldFromItsGlobalInAFrozenCopy() throws {
    let target = mvt_startMovingHolder(200)
    defer { mvt_stopMovingHolder() }
    for _ in 0..<5 {
      let snapshot = try ProcessSnapshot.ofFrozenCopy()
      #expect(snapshot.isFrozenCopy && snapshot.pid != getpid())
      let model = try HeapModel(snapshot: snapshot)
      let block = try #require(model.block(containing: unmask(target)))
      let path = try #require(model.pathToRoot(from: block, accepts: Self.isGlobal).path)
      expectReal(path, in: model)
      #expect(path.blocks.count == 2)
      #expect(model.describe(path.root).contains("mvt_movingHolder"), "\(model.describe(path.root))")
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

  @Test func readingWhileOtherThreadsAllocateAndFreeNeitherCrashesNorLosesAHeldList() throws {
    _ = mvt_makeList(30, 2736)
    defer { mvt_freeList() }
    mvt_startChurn(3)
    defer { mvt_stopChurn() }
    for _ in 0..<3 {
      let snapshot = try ProcessSnapshot()
      // Blocks in address order, none inside another (heaps that changed
      // while walked once overlapped).
      let heap = snapshot.heap
      let ordered = (1..<max(heap.count, 1)).allSatisfy { heap[$0 - 1].range.upperBound <= heap[$0].address }
      #expect(ordered, "\(heap.report)")
      try expectWholeList(in: try HeapModel(snapshot: snapshot), head: mvt_listHeadAddress(), nodes: 30)
    }
  }
}

@Test(.memoryViewSupported, .runsSuitesAlone) func cStructureModelTestsPassInAProcessOfTheirOwn() throws {
  try ProcessOfItsOwn.expectPasses("HeapModelTests.CStructureModelTests")
}
