import LeakLabTestSupport
import MemoryView
import Testing

@testable import HeapModel

/// glibc's main arena (`malloc_state`, a static of libc) points at chunk
/// headers: its top chunk's and its bins' free chunks'. A chunk's header is
/// the last word of the block before it, so each of those pointers reads as
/// a word into a live block. None is a root.
@Suite(.memoryViewSupported) struct AllocatorStateRootTests {
  @Test func noWordOfTheMainArenaIsARoot() throws {
    // A block taken from the top chunk: the arena's `top` now points at
    // this block's last word.
    let block = UnsafeMutableRawPointer.allocate(byteCount: 100_000, alignment: 16)
    defer { block.deallocate() }
    try withExtendedLifetime(block) {
      let model = try HeapModel(snapshot: try ProcessSnapshot.ofFrozenCopy())
      let arena = try #require(model.snapshot.heap.mainArenaState)
      let libc = try #require(model.snapshot.images.images.first { $0.name.hasPrefix("libc.so") })
      #expect(libc.containsGlobal(arena.lowerBound))
      let fromArena = (0..<model.rootTargets.count).filter { arena.contains(model.rootAddresses.base![$0]) }
      #expect(fromArena.isEmpty, "\(fromArena.count) root words in the main arena")
    }
  }
}
