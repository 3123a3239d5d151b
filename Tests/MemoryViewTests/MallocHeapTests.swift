import CMemoryViewTestSupport
import Glibc
import LeakLabTestSupport
import Testing

@testable import MemoryView

/// The heap walk against blocks whose addresses and fates the test knows.
extension CStructureTests {
  @Suite(.memoryViewSupported) struct MallocHeapTests {
    private func walk(usesLibcSymbols: Bool = true) throws -> MallocHeap {
      let memory = ProcessMemory.current
      let map = try MemoryMap(pid: getpid())
      return try MallocHeap(
        memory: memory, map: map, images: ImageList(map: map, memory: memory),
        usesLibcSymbols: usesLibcSymbols)
    }

    @Test func everyNodeOfAListIsALiveBlockOfItsSize() throws {
      _ = mvt_makeList(50, 40)
      defer { mvt_freeList() }
      let heap = try walk()
      var node = mvt_listHeadAddress()
      var nodes = 0
      while node != 0 {
        let block = try #require(heap.block(containing: node), "\(heap.report)")
        #expect(block.address == node)
        #expect(block.size >= 40 && block.size < 40 + 32)
        #expect(heap.block(containing: node + 20)?.address == node)
        node = ProcessMemory.current.word(at: node) ?? 0
        nodes += 1
      }
      #expect(nodes == 50)
    }

    @Test func chunksFreedIntoTheThreadsCacheAreNotBlocks() throws {
      var freed = [UInt](repeating: 0, count: 7)
      mvt_allocateAndFreeOnThread(200, 7, &freed)
      defer { mvt_stopFreeingThread() }
      let live = mvt_makeUnreferenced(200)
      defer { mvt_freeMasked(live) }
      let heap = try walk()
      for masked in freed { #expect(heap.block(containing: masked ^ UInt(MVT_MASK)) == nil) }
      #expect(heap.block(containing: live ^ UInt(MVT_MASK)) != nil)
      #expect(heap.report.tcaches >= 1)
      #expect(heap.report.freeInTcache >= 7)
    }

    @Test func chunksFreedPastAFullCacheGoToFastbinsAndAreNotBlocks() throws {
      // Seven fill this thread's tcache bin for 72-byte requests; the rest go to a fastbin.
      var freed = [UInt](repeating: 0, count: 20)
      mvt_allocateAndFreeOnThread(72, 20, &freed)
      defer { mvt_stopFreeingThread() }
      let heap = try walk()
      let stillBlocks = freed.filter { heap.block(containing: $0 ^ UInt(MVT_MASK)) != nil }
      // Another thread of the same arena may have reused a fastbin chunk since.
      #expect(stillBlocks.count <= 2)
      #expect(heap.report.freeInFastbins >= 1)
    }

    @Test func largeBlocksHaveTheirOwnMappingsAndAreFound() throws {
      // Above glibc's largest dynamic mmap threshold (32 MiB): mmapped whatever was freed before.
      let last = mvt_makeMappedChain(40 << 20) ^ UInt(MVT_MASK)
      defer { mvt_freeMappedChain() }
      let heap = try walk()
      let block = try #require(heap.block(containing: last + 300_000))
      #expect(block.address == last)
      #expect(block.origin == .mmapped)
      #expect(block.size >= 40 << 20)
      #expect(heap.report.mmappedChunks >= 3)
    }

    @Test func aBlockAllocatedOnAnotherThreadIsFoundInItsArena() throws {
      var thread: Int32 = 0
      let held = mvt_startStackHolder(96, &thread) ^ UInt(MVT_MASK)
      defer { mvt_stopStackHolder() }
      let heap = try walk()
      #expect(heap.block(containing: held)?.address == held)
      #expect(heap.report.arenaHeaps >= 1)
    }

    @Test func theMainArenaAndTheTcacheKeyAreFoundWithoutSymbolsAsWithThem() throws {
      var freed = [UInt](repeating: 0, count: 3)
      mvt_allocateAndFreeOnThread(48, 3, &freed)
      defer { mvt_stopFreeingThread() }
      let bySearch = try walk(usesLibcSymbols: false)
      #expect(bySearch.report.mainArenaSource == "search")
      #expect(bySearch.report.tcacheKeySource == "lists")
      for masked in freed { #expect(bySearch.block(containing: masked ^ UInt(MVT_MASK)) == nil) }
      _ = try walk()
      // Other threads may add an arena between the two walks.
      #expect(bySearch.report.arenasFound >= 1)
    }

    @Test(arguments: [true, false])
    func aChunkThatCarriesTheTcacheKeyIsFreeWhetherOrNotSecondWordsAreKept(keepsSecondWords: Bool) throws {
      let memory = ProcessMemory.current
      let map = try MemoryMap(pid: getpid())
      let images = ImageList(map: map, memory: memory)
      let key = try #require(LibcSymbols(images: images, memory: memory).tcacheKey)
      // Two blocks of a tcache's size: one carries the key where a cached
      // chunk keeps it (its second word), as a chunk freed into a tcache
      // whose lists were not read does; the other carries another word.
      let keyed = mvt_makeUnreferenced(48)
      let other = mvt_makeUnreferenced(48)
      defer {
        for masked in [keyed, other] {
          UnsafeMutablePointer<UInt>(bitPattern: masked ^ UInt(MVT_MASK))![1] = 0
          mvt_freeMasked(masked)
        }
      }
      UnsafeMutablePointer<UInt>(bitPattern: keyed ^ UInt(MVT_MASK))![1] = key
      UnsafeMutablePointer<UInt>(bitPattern: other ^ UInt(MVT_MASK))![1] = key ^ 1
      let heap = try MallocHeap(memory: memory, map: map, images: images, keepsSecondWords: keepsSecondWords)
      #expect(heap.block(containing: keyed ^ UInt(MVT_MASK)) == nil)
      #expect(heap.block(containing: other ^ UInt(MVT_MASK))?.address == other ^ UInt(MVT_MASK))
      #expect(heap.report.freeByKeyOnly >= 1)
      #expect(heap.keepsSecondWords == keepsSecondWords)
    }

    @Test func aHeapTheMapShowsInPiecesIsWalkedAsOne() throws {
      // A page of the brk heap advised otherwise splits its line of the map
      // in three, as glibc's `glibc.malloc.hugetlb` tunable does in 2 MiB
      // steps; a chunk may span each split. (The test's own blocks come
      // from its thread's arena: the page is a quarter into the brk heap.)
      let heapLine = try #require(try MemoryMap(pid: getpid()).regions.first { $0.path == "[heap]" })
      let page = (heapLine.start + (heapLine.end - heapLine.start) / 4) & ~4095
      #expect(madvise(UnsafeMutableRawPointer(bitPattern: page), 4096, MADV_NOHUGEPAGE) == 0)
      let lines = try MemoryMap(pid: getpid()).regions.filter { $0.path == "[heap]" }
      #expect(lines.count >= 3)
      let heap = try walk()
      #expect(heap.report.mainHeaps == 1)
      #expect(heap.report.isComplete, "\(heap.report.notes)")
    }

    @Test func aWalkOfAQuietHeapIsComplete() throws {
      let heap = try walk()
      #expect(heap.report.isComplete, "\(heap.report.notes)")
      #expect(heap.count > 100)
      #expect(heap.index(containing: 0x10) == nil)
    }
  }
}
