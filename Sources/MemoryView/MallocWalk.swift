/// Bits of a chunk's flags during a walk (bits 0–1 hold its origin).
enum ChunkFlag {
  static let inUse: UInt8 = 8
  static let tcacheCandidate: UInt8 = 16
  static let free: UInt8 = 32
  static let allocatorInternal: UInt8 = 64
  /// In a block's flags: the block belongs to malloc itself.
  static let internalBlock: UInt8 = 4
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
  /// For chunks a tcache can hold: the word where a cached chunk keeps the tcache key.
  let keyWords = ScratchBuffer<UInt>()
  /// Each chunk's first user word (a Swift object's metadata, a C++ object's vtable).
  let firstWords = ScratchBuffer<UInt>()
  let freeChunks = ScratchBuffer<UInt>()

  // The result.
  let blockStarts = ScratchBuffer<UInt>()
  let blockSizes = ScratchBuffer<UInt>()
  let blockFlags = ScratchBuffer<UInt8>()
  let blockFirstWords = ScratchBuffer<UInt>()

  /// Heaps to walk: where the first chunk is, where the heap ends, its top chunk if known.
  struct Heap {
    var firstChunk: UInt
    var end: UInt
    var top: UInt?
    var origin: MallocBlock.Origin
    var arena: UInt?
  }

  var heaps: [Heap] = []
  var arenas: Set<UInt> = []
  var mainArena: UInt?
  /// The main arena's top chunk, as the walk found it.
  var mainTop: UInt?
  var libc: LibcSymbols

  init(memory: ProcessMemory, map: MemoryMap, images: ImageList, usesLibcSymbols: Bool) {
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
    chunks.reserve(bound)
    chunkSizes.reserve(bound)
    chunkFlags.reserve(bound)
    keyWords.reserve(bound)
    firstWords.reserve(bound)
    for heap in heaps { walk(heap) }
    findMainArena()
    readFreeLists()
    keepLiveBlocks()
  }

  // MARK: Finding the heaps

  private mutating func findHeaps() {
    if let mainArena = libc.mainArena { self.mainArena = mainArena }
    for region in map.regions where region.isReadable && region.isWritable {
      if region.path == "[heap]" {
        let top = mainArena.flatMap { memory.word(at: $0 + MallocLayout.arenaTop) }
        heaps.append(
          Heap(firstChunk: region.start, end: region.end, top: top, origin: .mainArena, arena: mainArena))
        heapRanges.append(region.range)
        report.mainHeaps += 1
      } else if region.isAnonymous, !ScratchMappings.overlaps(region.range) {
        findArenaHeaps(in: region)
        findMappedChunks(in: region)
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

  private mutating func walk(_ heap: Heap) {
    let origin = heap.origin.rawValue
    if heap.origin == .mmapped {
      // Read again: it may have been unmapped since it was found.
      guard let header = reader.word(at: heap.firstChunk + 8, limit: heap.end),
        header & MallocLayout.flagBits == MallocLayout.isMapped,
        header & ~MallocLayout.flagBits == heap.end - heap.firstChunk
      else {
        report.notes.append("the mmapped chunk at \(hex(heap.firstChunk)) changed while it was read")
        return
      }
      append(
        chunk: heap.firstChunk, size: header & ~MallocLayout.flagBits, flags: origin | ChunkFlag.inUse,
        keyWord: 0, firstWord: reader.word(at: heap.firstChunk + 16, limit: heap.end) ?? 0)
      return
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
    var chunk = heap.firstChunk
    var previous: Int?
    while chunk + MallocLayout.headerSize <= end {
      guard let header = reader.word(at: chunk + 8, limit: end) else {
        report.notes.append("unreadable chunk header at \(hex(chunk))")
        return
      }
      let size = header & ~MallocLayout.flagBits
      if let previous, header & MallocLayout.previousInUse != 0 { chunkFlags[previous] |= ChunkFlag.inUse }
      if topIsHere
        ? chunk == top : (chunk + size == end || (size > end - chunk && size % MallocLayout.alignment == 0))
      {
        if heap.origin == .mainArena { mainTop = chunk }
        return
      }
      // A fencepost: the end of an arena's older heap.
      if size == MallocLayout.headerSize, heap.origin == .otherArena { return }
      guard size >= MallocLayout.minimumChunk, size % MallocLayout.alignment == 0, size <= end - chunk else {
        report.notes.append(
          "inconsistent chunk header at \(hex(chunk)) (size \(size)) in a heap ending at \(hex(heap.end))")
        return
      }
      var flags = origin
      var keyWord: UInt = 0
      let firstWord = reader.word(at: chunk + 16, limit: end) ?? 0
      if size <= MallocLayout.tcacheLargestChunk {
        keyWord = reader.word(at: chunk + 24, limit: end) ?? 0
        if size == MallocLayout.tcacheChunkSize { flags |= ChunkFlag.tcacheCandidate }
      }
      previous = append(chunk: chunk, size: size, flags: flags, keyWord: keyWord, firstWord: firstWord)
      chunk += size
    }
    report.notes.append("the heap ending at \(hex(heap.end)) has no top chunk where expected")
  }

  @discardableResult
  private func append(chunk: UInt, size: UInt, flags: UInt8, keyWord: UInt, firstWord: UInt) -> Int {
    firstWords.append(firstWord)
    chunks.append(chunk)
    chunkSizes.append(size)
    chunkFlags.append(flags)
    keyWords.append(keyWord)
    return chunks.count - 1
  }

  /// The position of the chunk that starts at `address`, by binary search.
  func chunkIndex(at address: UInt) -> Int? {
    var low = 0
    var high = chunks.count
    while low < high {
      let middle = (low + high) / 2
      if chunks[middle] < address { low = middle + 1 } else { high = middle }
    }
    return low < chunks.count && chunks[low] == address ? low : nil
  }
}
