#if canImport(Glibc)
  import Glibc
#endif

/// One live malloc block: what a program got from `malloc` and has not freed.
public struct MallocBlock: Sendable, Hashable, CustomStringConvertible {
  /// Where the block's memory starts: the pointer `malloc` returned (a Swift
  /// object's address).
  public var address: UInt
  /// The bytes usable from `address` (`malloc_usable_size`).
  public var size: UInt
  /// Where glibc keeps it.
  public var origin: Origin
  /// A block malloc allocated for its own use (a thread's tcache), not the program's.
  public var isAllocatorInternal: Bool

  /// The arena or mapping a block lives in.
  public enum Origin: UInt8, Sendable, Hashable {
    /// The main arena's `[heap]`.
    case mainArena
    /// A heap of another arena (64 MiB-aligned mappings).
    case otherArena
    /// A block big enough to get its own mapping.
    case mmapped
  }

  /// The block's memory.
  public var range: Range<UInt> { address..<address + size }

  public var description: String { "malloc block, \(size) B at \(hex(address))" }
}

/// The live blocks of a process's glibc malloc heap, found by walking its
/// chunks, so that any address can be mapped to the block that contains it.
///
/// Walks the main arena's `[heap]`, the heaps of the other arenas (found at
/// 64 MiB-aligned addresses by their `heap_info`) and the mmapped chunks. A
/// chunk is free when the next chunk's `PREV_INUSE` bit is clear, when it is
/// on a thread's tcache list or when it is on an arena's fastbin list (those
/// two keep `PREV_INUSE` set); free chunks and the top chunks are not blocks.
/// See ``report`` for what was found and how sure the walk is.
///
/// The block table lives in scratch mappings (never malloc), so scanning our
/// own process does not see the table as references to the blocks.
///
/// ```swift
/// let heap = try MallocHeap(memory: .current, map: map, images: images)
/// if let index = heap.index(containing: address) { print(heap[index]) }  // malloc block, 96 B at 0x…
/// ```
public final class MallocHeap: @unchecked Sendable {
  // @unchecked: the scratch tables are written only during `init`, then only read.
  let starts: ScratchBuffer<UInt>
  let sizes: ScratchBuffer<UInt>
  let flags: ScratchBuffer<UInt8>
  let firstWords: ScratchBuffer<UInt>
  let secondWords: ScratchBuffer<UInt>
  /// The tables as plain pointers (fast in debug builds too; the tables never change after `init`).
  package let startPointer: UnsafeMutablePointer<UInt>
  package let sizePointer: UnsafeMutablePointer<UInt>
  /// Each block's flags: its origin (bits 0–1), ``internalFlag``.
  @usableFromInline package let flagPointer: UnsafeMutablePointer<UInt8>
  package let firstWordPointer: UnsafeMutablePointer<UInt>
  package let secondWordPointer: UnsafeMutablePointer<UInt>
  package let blockIndex: BlockIndex
  /// What the walk found, and what it could not check.
  public let report: MallocReport
  /// The address ranges the heaps cover (block contents and malloc's own headers).
  public let heapRanges: [Range<UInt>]
  /// The main arena's `malloc_state` in libc's globals, when found: malloc's
  /// own bookkeeping, whose pointers address chunk headers (``RootSet``
  /// leaves it out of the roots).
  public let mainArenaState: Range<UInt>?

  /// Walks the malloc heap of the process read by `memory`.
  ///
  /// Throws when the process has no glibc malloc heap that can be read (a
  /// sanitizer's allocator, a static binary with another allocator, a read failure).
  ///
  /// Without `keepsSecondWords`, ``secondWord(of:)`` is not kept: for a
  /// reader that reads every block anyway (the full heap model).
  public convenience init(
    memory: ProcessMemory, map: MemoryMap, images: ImageList, keepsSecondWords: Bool = true
  )
    throws(MallocHeapError)
  {
    try self.init(
      memory: memory, map: map, images: images, usesLibcSymbols: true, keepsSecondWords: keepsSecondWords)
  }

  /// Walks the heap; without `usesLibcSymbols`, finds the main arena and the
  /// tcache key by search alone (to test the search against the symbols).
  init(
    memory: ProcessMemory, map: MemoryMap, images: ImageList, usesLibcSymbols: Bool,
    keepsSecondWords: Bool = true
  )
    throws(MallocHeapError)
  {
    var walk = MallocWalk(
      memory: memory, map: map, images: images, usesLibcSymbols: usesLibcSymbols,
      keepsSecondWords: keepsSecondWords)
    try walk.run()
    starts = walk.blockStarts
    sizes = walk.blockSizes
    flags = walk.blockFlags
    firstWords = walk.blockFirstWords
    secondWords = walk.blockSecondWords
    self.keepsSecondWords = keepsSecondWords
    liveBytes = walk.liveBytes
    for table in [starts, sizes, firstWords, secondWords] { table.reserve(1) }
    flags.reserve(1)
    startPointer = starts.base!
    sizePointer = sizes.base!
    flagPointer = flags.base!
    firstWordPointer = firstWords.base!
    secondWordPointer = secondWords.base!
    report = walk.report
    heapRanges = walk.heapRanges
    mainArenaState = walk.mainArena.map { $0..<$0 + MallocLayout.arenaSize }
    blockIndex = BlockIndex(starts: starts, sizes: sizes, regions: walk.heapRanges)
  }

  /// The number of live blocks.
  public var count: Int { starts.count }

  /// The block at `position` (blocks are sorted by address).
  public subscript(position: Int) -> MallocBlock {
    let flag = flagPointer[position]
    return MallocBlock(
      address: startPointer[position], size: sizePointer[position],
      origin: MallocBlock.Origin(rawValue: flag & 3) ?? .mainArena,
      isAllocatorInternal: flag & ChunkFlag.internalBlock != 0)
  }

  /// The first word of block `position` when the heap was walked: a Swift
  /// object's metadata, a C++ object's vtable, a CoreFoundation or Block isa.
  public func firstWord(of position: Int) -> UInt { firstWordPointer[position] }

  /// The second word of block `position` when the heap was walked: a Swift
  /// object's reference counts (a block's memory is never read twice just
  /// to tell an object from a C block that starts with a metadata address).
  /// Only in a heap walked with ``keepsSecondWords``.
  public func secondWord(of position: Int) -> UInt {
    precondition(keepsSecondWords, "MallocHeap: the blocks' second words were not kept")
    return secondWordPointer[position]
  }

  /// Whether ``secondWord(of:)`` was kept.
  public let keepsSecondWords: Bool

  /// Whether block `position` belongs to malloc itself (a thread's tcache).
  @inlinable
  package func isInternal(_ position: Int) -> Bool { flagPointer[position] & ChunkFlag.internalBlock != 0 }

  /// The flag (in ``flagPointer``) of a block that belongs to malloc itself.
  package static let internalFlag = ChunkFlag.internalBlock

  /// The position of the live block whose memory contains `address` (a
  /// pointer to its start or into its middle), or nil.
  public func index(containing address: UInt) -> Int? { blockIndex.lookUp(address) }

  /// The live block whose memory contains `address`, or nil.
  public func block(containing address: UInt) -> MallocBlock? { index(containing: address).map { self[$0] } }

  /// The total bytes of the live blocks.
  public let liveBytes: UInt

  /// Bytes of scratch memory the block table and its index use.
  public var tableBytes: Int {
    (starts.capacity + sizes.capacity + firstWords.capacity + secondWords.capacity) * 8 + flags.capacity
      + blockIndex.byteCount
  }
}

/// Why a malloc heap could not be walked.
public struct MallocHeapError: Error, Sendable, CustomStringConvertible {
  public var description: String
}

/// What a heap walk found, and how sure it is.
public struct MallocReport: Sendable, Hashable {
  /// Heaps walked: the main arena's `[heap]`, heaps of other arenas, mmapped chunks.
  public var mainHeaps = 0
  public var arenaHeaps = 0
  public var mmappedChunks = 0
  /// Arenas whose `malloc_state` was found (their fastbins were read).
  public var arenasFound = 0
  /// How the main arena was found: "symbols" (libc's or libc6-dbg's), "search", or "not found".
  public var mainArenaSource = "not found"
  /// Thread caches found and walked.
  public var tcaches = 0
  /// How the tcache key was learnt: "symbols", "lists", or "none" (no cached chunk seen).
  public var tcacheKeySource = "none"
  /// Free chunks told apart: in the bins (by `PREV_INUSE`), on tcache lists, on fastbin lists.
  public var freeInBins = 0
  public var freeInTcache = 0
  public var freeInFastbins = 0
  /// Chunks that carry the tcache key but were not on a list that could be walked.
  public var freeByKeyOnly = 0
  /// Chunks on a tcache list that malloc had handed out again by the time
  /// they were checked (their key gone): live, kept as blocks.
  public var reusedSinceListed = 0
  /// Chunks left out because they began inside a block already kept (heaps
  /// that changed while they were walked, seen to overlap).
  public var overlapping = 0
  /// Places where a header did not make sense (a heap changing under a live
  /// scan, or memory that is not what it seemed): the walk of that heap stopped there.
  public var notes: [String] = []

  /// Whether every heap was walked to its end and every free list read.
  public var isComplete: Bool { notes.isEmpty }
}
