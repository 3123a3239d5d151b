import CMemoryView

/// Bits of a chunk's flags during a walk (bits 0–1 hold its origin).
@usableFromInline enum ChunkFlag {
  static let inUse: UInt8 = 8
  static let tcacheCandidate: UInt8 = 16
  static let free: UInt8 = 32
  static let allocatorInternal: UInt8 = 64
  /// The chunk's second word is the tcache key, known before the walk.
  static let keyed: UInt8 = 128
  /// In a block's flags: the block belongs to malloc itself (read per block
  /// by the model's builder, from another module).
  @inlinable static var internalBlock: UInt8 { 4 }
}

/// The walk behind ``MallocHeap``: finds the heaps, walks their chunks, reads
/// the free lists, and keeps the chunks that are live blocks.
struct MallocWalk {
  let memory: ProcessMemory
  let map: MemoryMap
  let images: ImageList
  let reader: WindowedReader
  var report = MallocReport()
  var heapRanges: [Range<UInt>] = []

  // Every chunk walked, in address order.
  let chunks = ScratchBuffer<UInt>()
  let chunkSizes = ScratchBuffer<UInt>()
  /// Origin in bits 0–1, then `inUse` (8), `tcacheCandidate` (16), `free` (32), `internal` (64).
  let chunkFlags = ScratchBuffer<UInt8>()
  /// Each chunk's second user word: where a cached chunk keeps the tcache
  /// key, where a Swift object keeps its reference counts. Kept only when
  /// ``keepsSecondWords`` or when the key is learnt from the lists after the
  /// walk (see ``keepsKeyWords``): with the key known first, the walk flags
  /// the keyed chunks (``ChunkFlag/keyed``) and the full model, which reads
  /// every block, never needs them (12 MB of fresh pages at 10⁶ blocks).
  let keyWords = ScratchBuffer<UInt>()
  /// Each chunk's first user word (a Swift object's metadata, a C++ object's vtable).
  let firstWords = ScratchBuffer<UInt>()
  // The tables above as plain pointers once reserved (fast in debug builds
  // too), and how many chunks they hold.
  var chunkAddress = UnsafeMutablePointer<UInt>(bitPattern: 8)!
  var chunkSize = UnsafeMutablePointer<UInt>(bitPattern: 8)!
  var chunkFlag = UnsafeMutablePointer<UInt8>(bitPattern: 8)!
  var chunkKeyWord: UnsafeMutablePointer<UInt>?
  var chunkFirstWord = UnsafeMutablePointer<UInt>(bitPattern: 8)!
  var chunkCount = 0
  /// The tables above, for the C loops.
  var chunkTables: MVChunkTables {
    MVChunkTables(
      addresses: chunkAddress, sizes: chunkSize, keyWords: chunkKeyWord, firstWords: chunkFirstWord,
      flags: chunkFlag,
      count: chunkCount)
  }
  let freeChunks = ScratchBuffer<UInt>()
  /// The chunks of `freeChunks` that a tcache list holds (they carry the key).
  var cachedChunks = Set<UInt>()

  // The result: the chunk tables, compacted to the live blocks (``keepLiveBlocks()``).
  var blockStarts = ScratchBuffer<UInt>()
  var blockSizes = ScratchBuffer<UInt>()
  var blockFlags = ScratchBuffer<UInt8>()
  var blockFirstWords = ScratchBuffer<UInt>()
  var blockSecondWords = ScratchBuffer<UInt>()
  /// The bytes of the live blocks.
  var liveBytes: UInt = 0

  /// Heaps to walk: where the first chunk is, where the heap ends, its top chunk if known.
  struct Heap {
    var firstChunk: UInt
    var end: UInt
    var top: UInt?
    var origin: MallocBlock.Origin
    var arena: UInt?
    /// Where the walk stopped: the heap's blocks end before it (a live heap
    /// may have grown past `end` since the map was read).
    var walkedEnd: UInt = 0
  }

  var heaps: [Heap] = []
  var arenas: Set<UInt> = []
  var mainArena: UInt?
  /// The main arena's top chunk, as the walk found it.
  var mainTop: UInt?
  var libc: LibcSymbols

  /// Whether the blocks keep their second words (``MallocHeap/secondWord(of:)``).
  let keepsSecondWords: Bool
  /// Whether the chunk walk keeps every chunk's second word.
  var keepsKeyWords: Bool { keepsSecondWords || libc.tcacheKey == nil }
  /// The chunk tables the walk fills.
  var tables: [ScratchBuffer<UInt>] {
    keepsKeyWords ? [chunks, chunkSizes, keyWords, firstWords] : [chunks, chunkSizes, firstWords]
  }

  init(
    memory: ProcessMemory, map: MemoryMap, images: ImageList, usesLibcSymbols: Bool, keepsSecondWords: Bool
  ) {
    self.keepsSecondWords = keepsSecondWords
    self.memory = memory
    self.map = map
    self.images = images
    reader = WindowedReader(memory: memory)
    libc = LibcSymbols(images: images, memory: memory)
    if !usesLibcSymbols {
      libc.mainArena = nil
      libc.tcacheKey = nil
    }
  }

  mutating func run() throws(MallocHeapError) {
    findHeaps()
    guard !heaps.isEmpty else {
      throw MallocHeapError(
        description:
          "no glibc malloc heap found (another allocator, e.g. a sanitizer's, or nothing allocated)")
    }
    heaps.sort { $0.firstChunk < $1.firstChunk }
    // At most one chunk per 32 bytes of heap: reserved now (pages are only
    // touched as they fill), so the tables never move while they grow.
    let bound = heaps.reduce(0) { $0 + Int(($1.end - $1.firstChunk) / MallocLayout.minimumChunk) + 1 }
    for table in tables { table.reserve(bound) }
    chunkFlags.reserve(bound)
    chunkAddress = chunks.base!
    chunkSize = chunkSizes.base!
    chunkFlag = chunkFlags.base!
    chunkKeyWord = keyWords.base
    chunkFirstWord = firstWords.base!
    for index in heaps.indices {
      // A live heap can change under the walk: a walk that met an
      // inconsistent header is done once more, from fresh reads.
      let (before, notes) = (chunkCount, report.notes.count)
      heaps[index].walkedEnd = walk(heaps[index])
      if report.notes.count > notes {
        chunkCount = before
        report.notes.removeLast(report.notes.count - notes)
        reader.invalidate()
        heaps[index].walkedEnd = walk(heaps[index])
      }
    }
    // The heaps as walked, for the block index and the roots.
    heapRanges = heaps.map { heap in
      let start =
        heap.origin == .otherArena ? heap.firstChunk & ~(MallocLayout.heapMaximum - 1) : heap.firstChunk
      return start..<max(heap.end, heap.walkedEnd + MallocLayout.headerSize)
    }
    for table in tables { table.grow(by: chunkCount - table.count) }
    chunkFlags.grow(by: chunkCount - chunkFlags.count)
    findMainArena()
    readFreeLists()
    keepLiveBlocks()
  }

  // MARK: Finding the heaps

  private mutating func findHeaps() {
    let scratch = ScratchMappings.ranges
    if let mainArena = libc.mainArena { self.mainArena = mainArena }
    for region in map.regions where region.isReadable && region.isWritable {
      if region.path == "[heap]" {
        // One heap however many lines the map shows it as: the kernel splits
        // the brk area where part of it was advised otherwise (glibc's
        // `glibc.malloc.hugetlb` tunable asks for huge pages in 2 MiB steps),
        // and a chunk may span the split.
        if let last = heaps.indices.last, heaps[last].origin == .mainArena, heaps[last].end == region.start {
          heaps[last].end = region.end
          heapRanges[heapRanges.count - 1] = heapRanges[heapRanges.count - 1].lowerBound..<region.end
          continue
        }
        let top = mainArena.flatMap { memory.word(at: $0 + MallocLayout.arenaTop) }
        heaps.append(
          Heap(firstChunk: region.start, end: region.end, top: top, origin: .mainArena, arena: mainArena))
        heapRanges.append(region.range)
        report.mainHeaps += 1
      } else if region.isAnonymous {
        // The kernel merges neighbouring anonymous mappings in the map: a
        // heap may share a line with the scan's own scratch memory, so look
        // in every piece that is not scratch.
        for piece in RootSet.subtract(scratch, from: region.range) {
          var part = region
          part.range = piece
          findArenaHeaps(in: part)
          findMappedChunks(in: part)
        }
      }
    }
  }

  /// Heaps of non-main arenas: at every 64 MiB boundary of an anonymous
  /// mapping, a `heap_info` whose fields are consistent.
  private mutating func findArenaHeaps(in region: MemoryRegion) {
    let maximum = MallocLayout.heapMaximum
    var heap = (region.start + maximum - 1) & ~(maximum - 1)
    while heap + MallocLayout.heapInfoSize <= region.end {
      defer { heap += maximum }
      let info = memory.bytes(at: heap, count: Int(MallocLayout.heapInfoSize))
      guard info.count == Int(MallocLayout.heapInfoSize) else { continue }
      let word = { (index: Int) in info.withUnsafeBytes { $0.load(fromByteOffset: index * 8, as: UInt.self) }
      }
      let (arena, previous, size, protected) = (word(0), word(1), word(2), word(3))
      let isFirst = arena == heap + MallocLayout.heapInfoSize
      // The mapping may have grown since the map was read: trust `size` when
      // the heap's last word can be read.
      guard size >= 4096, size <= maximum, size % 4096 == 0, protected >= size, protected <= maximum,
        isFirst || (previous != 0 && previous % maximum == 0 && arena != 0),
        memory.word(at: heap + size - 8) != nil
      else { continue }
      arenas.insert(arena)
      let top = memory.word(at: arena + MallocLayout.arenaTop)
      heaps.append(
        Heap(
          firstChunk: MallocLayout.firstChunk(ofArenaHeap: heap, isFirstHeap: isFirst), end: heap + size,
          top: top,
          origin: .otherArena, arena: arena))
      heapRanges.append(heap..<heap + size)
      report.arenaHeaps += 1
    }
  }

  /// Chunks with their own mapping: `prev_size` 0, then a page-multiple size
  /// with only `IS_MMAPPED` set. Adjacent ones may show as one mapping.
  private mutating func findMappedChunks(in region: MemoryRegion) {
    var chunk = region.start
    while chunk + MallocLayout.headerSize <= region.end {
      guard let header = memory.word(at: chunk + 8), header & MallocLayout.flagBits == MallocLayout.isMapped,
        memory.word(at: chunk) == 0
      else { return }
      let size = header & ~MallocLayout.flagBits
      guard size >= 4096, size % 4096 == 0, size <= region.end - chunk,
        !heapRanges.contains(where: { $0.overlaps(chunk..<chunk + size) })
      else { return }
      heaps.append(Heap(firstChunk: chunk, end: chunk + size, top: nil, origin: .mmapped, arena: nil))
      heapRanges.append(chunk..<chunk + size)
      report.mmappedChunks += 1
      chunk += size
    }
  }

  // MARK: Walking chunks

  /// Walks one heap's chunks; returns the address where the walk stopped.
  private mutating func walk(_ heap: Heap) -> UInt {
    let origin = heap.origin.rawValue
    if heap.origin == .mmapped {
      // Read again: it may have been unmapped since it was found.
      guard let header = reader.word(at: heap.firstChunk + 8, limit: heap.end),
        header & MallocLayout.flagBits == MallocLayout.isMapped,
        header & ~MallocLayout.flagBits == heap.end - heap.firstChunk
      else {
        return heap.firstChunk  // freed (unmapped) since it was found: not a block
      }
      append(
        chunk: heap.firstChunk, size: header & ~MallocLayout.flagBits, flags: origin | ChunkFlag.inUse,
        keyWord: reader.word(at: heap.firstChunk + 24, limit: heap.end) ?? 0,
        firstWord: reader.word(at: heap.firstChunk + 16, limit: heap.end) ?? 0)
      return heap.end
    }
    // The top chunk moves with every allocation from it: read it now, and
    // also take a chunk that ends at (or, in a heap that grew since the map
    // was read, past) the end of the heap as the top.
    let top = heap.arena.flatMap { memory.word(at: $0 + MallocLayout.arenaTop) } ?? heap.top
    var end = heap.end
    // An arena's heap can hold its top only within its own 64 MiB.
    let limit =
      heap.origin == .otherArena
      ? (heap.firstChunk & ~(MallocLayout.heapMaximum - 1)) + MallocLayout.heapMaximum
      : heap.firstChunk + MallocLayout.heapMaximum * 16
    let topIsHere = top.map { $0 >= heap.firstChunk && $0 < limit } ?? false
    if let top, topIsHere { end = max(end, top + MallocLayout.headerSize) }
    // The chunks are read in C, a window at a time (mv_walkChunks); this
    // loop copies the next window when the walk reaches the end of one.
    var state = MVChunkWalk()
    state.end = end
    state.top = top ?? 0
    state.topIsHere = topIsHere
    state.stopsAtFencepost = heap.origin == .otherArena
    state.origin = origin
    state.tcacheCandidateFlag = ChunkFlag.tcacheCandidate
    state.inUseFlag = ChunkFlag.inUse
    state.tcacheKey = libc.tcacheKey ?? 0
    state.keyedFlag = ChunkFlag.keyed
    state.headerSize = MallocLayout.headerSize
    state.minimumChunk = MallocLayout.minimumChunk
    state.alignment = MallocLayout.alignment
    state.flagBits = MallocLayout.flagBits
    state.previousInUse = MallocLayout.previousInUse
    state.tcacheChunkSize = MallocLayout.tcacheChunkSize
    state.previous = -1
    state.chunk = heap.firstChunk
    var reloadedAt: UInt?
    while true {
      state.tables = chunkTables
      state.capacity = chunks.capacity
      let window = reader.bytes
      let stop = mv_walkChunks(
        &state, window.baseAddress?.assumingMemoryBound(to: UInt8.self), reader.base, window.count)
      chunkCount = state.tables.count
      let chunk = state.chunk
      switch stop {
      case MVChunkWalkTop:
        if heap.origin == .mainArena { mainTop = chunk }
        return chunk
      case MVChunkWalkFencepost:
        return chunk
      case MVChunkWalkInconsistent:
        let size = (reader.word(at: chunk + 8, limit: end) ?? 0) & ~MallocLayout.flagBits
        report.notes.append(
          "inconsistent chunk header at \(hex(chunk)) (size \(size)) in a heap ending at \(hex(heap.end))")
        return chunk
      case MVChunkWalkFull:
        // A live heap can grow past the bound reserved from the map.
        growTables()
        continue
      default:
        break
      }
      guard chunk + MallocLayout.headerSize <= end else { break }
      // The chunk's words are past the window: copy the next one from its header.
      guard reloadedAt != chunk, reader.load(chunk + 8, limit: max(end, chunk + 32)) >= 8 else {
        report.notes.append("unreadable chunk header at \(hex(chunk))")
        return chunk
      }
      reloadedAt = chunk
    }
    report.notes.append("the heap ending at \(hex(heap.end)) has no top chunk where expected")
    return state.chunk
  }

  @discardableResult
  private mutating func append(chunk: UInt, size: UInt, flags: UInt8, keyWord: UInt, firstWord: UInt) -> Int {
    // A live heap can grow past the bound reserved from the map.
    if chunkCount == chunks.capacity { growTables() }
    let index = chunkCount
    chunkAddress[index] = chunk
    chunkSize[index] = size
    chunkFlag[index] = flags | (keyWord != 0 && keyWord == libc.tcacheKey ? ChunkFlag.keyed : 0)
    chunkKeyWord?[index] = keyWord
    chunkFirstWord[index] = firstWord
    chunkCount += 1
    return index
  }

  /// Grows the chunk tables (which hold `chunkCount` entries written by
  /// pointer) and refreshes the pointers.
  private mutating func growTables() {
    let minimum = max(chunkCount * 2, 4096)
    for table in tables {
      table.grow(by: chunkCount - table.count)
      table.reserve(minimum)
    }
    chunkFlags.grow(by: chunkCount - chunkFlags.count)
    chunkFlags.reserve(minimum)
    chunkAddress = chunks.base!
    chunkSize = chunkSizes.base!
    chunkFlag = chunkFlags.base!
    chunkKeyWord = keyWords.base
    chunkFirstWord = firstWords.base!
  }

  /// The position of the chunk that starts at `address`, by binary search.
  func chunkIndex(at address: UInt) -> Int? {
    var low = 0
    var high = chunkCount
    while low < high {
      let middle = (low + high) / 2
      if chunkAddress[middle] < address { low = middle + 1 } else { high = middle }
    }
    return low < chunkCount && chunkAddress[low] == address ? low : nil
  }
}
