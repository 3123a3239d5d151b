/// glibc malloc's data structures on 64-bit Linux, as measured on glibc 2.36
/// (Debian 12) with `ptype /o` in gdb over libc6-dbg's symbols; see
/// docs/memory-view.md.
enum MallocLayout {
  /// A chunk's header: `prev_size`, then `size` with three flag bits.
  static let headerSize: UInt = 16
  static let minimumChunk: UInt = 32
  static let alignment: UInt = 16
  static let previousInUse: UInt = 1
  static let isMapped: UInt = 2
  static let nonMainArena: UInt = 4
  static let flagBits: UInt = 7

  /// `HEAP_MAX_SIZE`: every heap of a non-main arena starts at a multiple of it.
  static let heapMaximum: UInt = 64 << 20
  /// `sizeof(heap_info)`: `ar_ptr, prev, size, mprotect_size, pagesize, pad`.
  static let heapInfoSize: UInt = 48
  /// `sizeof(struct malloc_state)`.
  static let arenaSize: UInt = 2200
  /// Offsets in `struct malloc_state`.
  static let arenaFastbins: UInt = 16
  static let fastbinCount = 10
  static let arenaTop: UInt = 96
  static let arenaNext: UInt = 2160
  static let arenaSystemMemory: UInt = 2184

  /// `struct tcache_perthread_struct`: `uint16_t counts[64]; tcache_entry *entries[64];`
  static let tcacheBins = 64
  static let tcacheEntries: UInt = 128
  static let tcacheStructSize: UInt = 640
  /// The chunk size of a tcache struct (640 bytes asked, plus the size word, aligned).
  static let tcacheChunkSize: UInt = 0x290
  /// The largest chunk a tcache holds (1032-byte requests).
  static let tcacheLargestChunk: UInt = 0x410

  /// Safe-linking (glibc 2.32+): a free-list link is stored as
  /// `(address of the link >> 12) ^ next`.
  static func reveal(_ stored: UInt, at address: UInt) -> UInt { (address >> 12) ^ stored }

  /// The first chunk of a non-main arena's first heap: after `heap_info`
  /// and `malloc_state`, moved so that the user pointer is 16-byte aligned.
  static func firstChunk(ofArenaHeap heap: UInt, isFirstHeap: Bool) -> UInt {
    guard isFirstHeap else { return heap + heapInfoSize }
    let afterState = heap + heapInfoSize + arenaSize
    let misalignment = (afterState + headerSize) & (alignment - 1)
    return misalignment == 0 ? afterState : afterState + alignment - misalignment
  }
}
