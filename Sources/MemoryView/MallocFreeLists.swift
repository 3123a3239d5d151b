import CMemoryView

/// Reading glibc's free lists: which chunks that look in use are in fact free.
///
/// A chunk on a thread's tcache or on an arena's fastbin keeps the next
/// chunk's `PREV_INUSE` bit set, so the chunk walk alone counts it as live.
/// The lists are walked (links are safe-linked: `(address >> 12) ^ next`) and
/// every chunk on them checked against the chunk table; a cached chunk also
/// carries the process's random tcache key in its second word, which catches
/// cached chunks on a list that changed while a live process was read.
extension MallocWalk {
  /// Finds the main arena's `malloc_state` when libc's symbols did not give it:
  /// the arena that the other arenas' `next` ring leads to outside their
  /// heaps, or a word in libc's data that points at the main heap's top
  /// chunk, at the offset of `top`, in a state whose `next` closes the ring.
  mutating func findMainArena() {
    if mainArena != nil {
      report.mainArenaSource = "symbols"
      return
    }
    for arena in arenas {
      guard let next = memory.word(at: arena + MallocLayout.arenaNext), next != 0, !arenas.contains(next)
      else {
        continue
      }
      if let top = memory.word(at: next + MallocLayout.arenaTop), top == mainTop || mainTop == nil {
        mainArena = next
        report.mainArenaSource = "search"
        return
      }
    }
    guard let mainTop, let libcImage = libc.image else { return }
    for range in libcImage.writableRanges {
      let bytes = memory.bytes(at: range.lowerBound, count: Int(range.count))
      let found: UInt? = bytes.withUnsafeBytes { raw in
        var offset = Int(MallocLayout.arenaTop)
        while offset + 8 <= raw.count {
          defer { offset += 8 }
          guard raw.load(fromByteOffset: offset, as: UInt.self) == mainTop else { continue }
          let state = range.lowerBound + UInt(offset) - MallocLayout.arenaTop
          let nextOffset = offset - Int(MallocLayout.arenaTop) + Int(MallocLayout.arenaNext)
          guard nextOffset + 8 <= raw.count else { continue }
          let next = raw.load(fromByteOffset: nextOffset, as: UInt.self)
          if next == state || arenas.contains(next) { return state }
        }
        return nil
      }
      if let found {
        mainArena = found
        report.mainArenaSource = "search"
        return
      }
    }
  }

  /// Walks every fastbin and every tcache, then marks the chunks they hold as free.
  mutating func readFreeLists() {
    var allArenas = arenas
    if let mainArena { allArenas.insert(mainArena) }
    report.arenasFound = allArenas.count
    for arena in allArenas.sorted() { readFastbins(of: arena) }
    var keys: [UInt: Int] = [:]
    for index in 0..<chunkCount where chunkFlag[index] & ChunkFlag.tcacheCandidate != 0 {
      if chunkFlag[index] & ChunkFlag.inUse != 0 { readTcache(at: index, keys: &keys) }
    }
    var key = libc.tcacheKey
    if key != nil {
      report.tcacheKeySource = "symbols"
    } else if let seen = keys.max(by: { $0.value < $1.value })?.key {
      key = seen
      report.tcacheKeySource = "lists"
    }
    markFree(keyedBy: key)
  }

  private mutating func readFastbins(of arena: UInt) {
    for bin in 0..<MallocLayout.fastbinCount {
      guard var chunk = memory.word(at: arena + MallocLayout.arenaFastbins + UInt(bin) * 8) else { continue }
      let expected = MallocLayout.minimumChunk + UInt(bin) * MallocLayout.alignment
      var steps = 0
      while chunk != 0 {
        guard steps < 1 << 24, chunk % MallocLayout.alignment == 0, let header = memory.word(at: chunk + 8),
          header & ~MallocLayout.flagBits == expected, let stored = memory.word(at: chunk + 16)
        else {
          report.notes.append(
            "fastbin \(bin) of the arena at \(hex(arena)) leads to \(hex(chunk)), not a free chunk")
          break
        }
        freeChunks.append(chunk)
        report.freeInFastbins += 1
        chunk = MallocLayout.reveal(stored, at: chunk + 16)
        steps += 1
      }
    }
  }

  /// Reads the candidate tcache in chunk `index`: every count must match its
  /// list, every list must hold chunks of its bin's size.
  ///
  /// In our own process the calling thread's tcache changes with every
  /// allocation the scan makes: the buffers are allocated before the struct
  /// is read, and nothing is allocated until its lists have been walked
  /// (measured: growing an array mid-walk left the lists of three bins
  /// pointing at chunks taken since, and the tcache was not believed).
  private mutating func readTcache(at index: Int, keys: inout [UInt: Int]) {
    let chunk = chunkAddress[index]
    let capacity = Self.tcacheWalkCapacity
    var lists: [(bin: Int, first: UInt, count: Int)] = []
    lists.reserveCapacity(MallocLayout.tcacheBins)
    var found: [UInt] = []
    found.reserveCapacity(capacity)
    var foundKeys: [UInt] = []
    foundKeys.reserveCapacity(capacity)
    var bytes = [UInt8](repeating: 0, count: Int(MallocLayout.tcacheStructSize))
    let copied = bytes.withUnsafeMutableBytes { memory.read(chunk + MallocLayout.headerSize, into: $0) }
    guard copied == bytes.count else { return }
    let consistent = bytes.withUnsafeBytes { raw -> Bool in
      for bin in 0..<MallocLayout.tcacheBins {
        let count = Int(raw.load(fromByteOffset: bin * 2, as: UInt16.self))
        let first = raw.load(fromByteOffset: Int(MallocLayout.tcacheEntries) + bin * 8, as: UInt.self)
        if (count == 0) != (first == 0) || first % MallocLayout.alignment != 0 { return false }
        if count > 0 { lists.append((bin, first, count)) }
      }
      return true
    }
    guard consistent, !lists.isEmpty, lists.reduce(0, { $0 + $1.count }) <= capacity else { return }
    // Check the lists before believing this is a tcache.
    for list in lists {
      let expected = MallocLayout.minimumChunk + UInt(list.bin) * MallocLayout.alignment
      var entry = list.first
      for _ in 0..<list.count {
        // A chunk made after the walk (a live heap grows) is not in the table
        // but still carries its header.
        guard entry >= MallocLayout.headerSize, entry % MallocLayout.alignment == 0,
          let header = memory.word(at: entry - 8), header & ~MallocLayout.flagBits == expected,
          let stored = memory.word(at: entry), let key = memory.word(at: entry + 8)
        else { return }
        foundKeys.append(key)
        found.append(entry - MallocLayout.headerSize)
        entry = MallocLayout.reveal(stored, at: entry)
      }
    }
    for key in foundKeys { keys[key, default: 0] += 1 }
    report.tcaches += 1
    chunkFlag[index] |= ChunkFlag.allocatorInternal
    for cached in found { freeChunks.append(cached) }
    cachedChunks.formUnion(found)
    report.freeInTcache += found.count
  }

  /// The most chunks one tcache's lists are walked for: glibc's default of
  /// 7 per bin for its 64 bins, with room for a raised `tcache_count` tunable.
  static let tcacheWalkCapacity = 64 * 7 * 4

  /// Marks the chunks on the lists free, then any other chunk a tcache could
  /// hold whose key word is the tcache key.
  private mutating func markFree(keyedBy key: UInt?) {
    var sorted = freeChunks.buffer
    sorted.sort()
    for position in 0..<freeChunks.count {
      let chunk = freeChunks[position]
      // A cached chunk keeps the key in its second word until malloc hands it
      // out again: one without it was taken since the list was read (a live
      // process reuses its cached chunks all the time), and is live.
      if let key, key != 0, cachedChunks.contains(chunk),
        memory.word(at: chunk + MallocLayout.headerSize + 8) != key
      {
        report.reusedSinceListed += 1
        continue
      }
      if let index = chunkIndex(at: chunk) { chunkFlag[index] |= ChunkFlag.free }
    }
    guard let key, key != 0 else { return }
    // A key known before the walk flagged its chunks there; one learnt from
    // the lists is compared with every chunk's second word, kept for it.
    let flaggedByTheWalk = key == libc.tcacheKey
    for index in 0..<chunkCount where chunkFlag[index] & ChunkFlag.free == 0 {
      let isKeyed =
        flaggedByTheWalk ? chunkFlag[index] & ChunkFlag.keyed != 0 : chunkKeyWord?[index] == key
      guard isKeyed else { continue }
      guard chunkSize[index] <= MallocLayout.tcacheLargestChunk, chunkFlag[index] & ChunkFlag.inUse != 0
      else { continue }
      chunkFlag[index] |= ChunkFlag.free
      report.freeByKeyOnly += 1
    }
  }

  /// Keeps the chunks that are in use and on no free list, as blocks.
  ///
  /// In place: a block is written at or before its chunk's entry, so the
  /// chunk tables become the block tables and no fresh page is touched (at
  /// 10⁶ blocks, the kernel zeroing 50 MB of new tables was a fifth of the
  /// analysis on this machine).
  mutating func keepLiveBlocks() {
    var live = MVLiveChunks()
    live.tables = chunkTables
    live.headerSize = MallocLayout.headerSize
    live.mmappedOrigin = MallocBlock.Origin.mmapped.rawValue
    live.inUseFlag = ChunkFlag.inUse
    live.freeFlag = ChunkFlag.free
    live.allocatorInternalFlag = ChunkFlag.allocatorInternal
    live.internalBlockFlag = ChunkFlag.internalBlock
    let kept = mv_keepLiveChunks(&live)
    report.overlapping += live.overlapping
    report.freeInBins += live.freeInBins
    liveBytes = live.liveBytes
    for table in tables { table.truncate(to: kept) }
    chunkFlags.truncate(to: kept)
    chunkCount = 0
    blockStarts = chunks
    blockSizes = chunkSizes
    blockFlags = chunkFlags
    blockFirstWords = firstWords
    blockSecondWords = keyWords
  }

}
