import CMemoryView
import MemoryView

/// Blocks whose memory holds no references although malloc counts them
/// live: memory a runtime keeps for reuse after it was freed, and buffers of
/// bytes only. Their stale words are what made leaks "reachable" before.
///
/// - **Dispatch's continuation caches.** libdispatch keeps a thread's freed
///   continuations (72-byte blocks) on a list in its thread-local
///   `dispatch_tsd` (`dispatch_cache_key`), linked through `do_next`; a
///   cached continuation still holds the function and context of the work it
///   last ran. Found through each thread's TLS: the library's static TLS
///   offset is read from the process's `link_map` (its field found once in
///   this process, see ``mv_linkMapTLSOffsetField``).
/// - **stdio's buffers.** Every `FILE` on glibc's `_IO_list_all` list has a
///   malloc'd buffer of text: the bytes past what was written are whatever
///   the block held before (a `4104 B` stdout buffer kept a leaked object's
///   address).
/// - **CoreFoundation's table of hash callbacks.** `CFBasicHashCallBackPtrs`
///   (libFoundation's static) points at a malloc'd array of 256 (then 1024)
///   function pointers, filled only up to `CFBasicHashCallBackPtrsCount`:
///   its other words are whatever the block held before (measured: word 250
///   of its 2056 B block made a test's object "held" from that global, 1 run
///   in 25 under load), and its entries are code, never heap.
enum FreeMemory {
  /// The kinds of the blocks these rules know, by heap position.
  static func presetKinds(in snapshot: ProcessSnapshot) -> [Int: BlockKind] {
    var kinds: [Int: BlockKind] = [:]
    for block in stdioBuffers(in: snapshot) { kinds[block] = .bytes }
    if let block = coreFoundationCallbackTable(in: snapshot) { kinds[block] = .bytes }
    for block in dispatchContinuationCaches(in: snapshot) { kinds[block] = .cached }
    return kinds
  }

  /// glibc 2.36's `struct _IO_FILE`: `_IO_buf_base`, `_IO_buf_end`,
  /// `_IO_save_base`, `_IO_backup_base` and `_chain` offsets.
  static let bufferBaseOffset: UInt = 56
  static let saveBaseOffset: UInt = 72
  static let backupBaseOffset: UInt = 80
  static let chainOffset: UInt = 104

  /// The buffers of every open `FILE`.
  static func stdioBuffers(in snapshot: ProcessSnapshot) -> [Int] {
    guard let libc = snapshot.images.images.first(where: { $0.name.hasPrefix("libc.so") }),
      let listHead = libc.address(ofSymbol: "_IO_list_all", kinds: .object)
    else { return [] }
    let memory = snapshot.memory
    let heap = snapshot.heap
    var blocks: [Int] = []
    var file = memory.word(at: listHead) ?? 0
    var seen = 0
    while file != 0, seen < 1024 {
      seen += 1
      for offset in [bufferBaseOffset, saveBaseOffset, backupBaseOffset] {
        guard let buffer = memory.word(at: file + offset), buffer != 0,
          let block = heap.index(containing: buffer), heap[block].address == buffer
        else { continue }
        blocks.append(block)
      }
      file = memory.word(at: file + chainOffset) ?? 0
    }
    return blocks
  }

  /// The block of CoreFoundation's table of hash callbacks, if the process has one.
  static func coreFoundationCallbackTable(in snapshot: ProcessSnapshot) -> Int? {
    guard
      let foundation = snapshot.images.images.first(where: { $0.name.hasPrefix("libFoundation.so") }),
      let pointer = foundation.address(ofSymbol: "CFBasicHashCallBackPtrs", kinds: .object),
      let table = snapshot.memory.word(at: pointer), table != 0,
      let block = snapshot.heap.index(containing: table), snapshot.heap[block].address == table
    else { return nil }
    return block
  }

  /// `struct dispatch_tsd`'s `dispatch_cache_key` and a continuation's `do_next`.
  static let cacheKeyOffset: UInt = 24
  static let continuationNextOffset: UInt = 16
  /// More continuations than any cache keeps (libdispatch's limit is 1024 per thread).
  static let cacheLimit = 4096

  /// The field of `struct link_map` that holds a module's static TLS offset.
  static let tlsOffsetField: Int? = {
    let field = mv_linkMapTLSOffsetField("libdispatch.so")
    return field >= 0 ? field : nil
  }()

  /// The continuations on every live thread's cache.
  static func dispatchContinuationCaches(in snapshot: ProcessSnapshot) -> [Int] {
    guard let field = tlsOffsetField, let offset = dispatchTLSOffset(in: snapshot, field: UInt(field)) else {
      return []
    }
    let memory = snapshot.memory
    let heap = snapshot.heap
    var blocks: [Int] = []
    for thread in snapshot.threads.threads {
      guard let pointer = thread.threadPointer, pointer > offset,
        var continuation = memory.word(at: pointer - offset + cacheKeyOffset)
      else { continue }
      var count = 0
      while continuation != 0, count < cacheLimit,
        let block = heap.index(containing: continuation), heap[block].address == continuation
      {
        blocks.append(block)
        count += 1
        continuation = memory.word(at: continuation + continuationNextOffset) ?? 0
      }
    }
    return blocks
  }

  /// libdispatch's static TLS offset in the snapshot's process, from its
  /// `link_map` (found through the dynamic loader's `_r_debug`).
  static func dispatchTLSOffset(in snapshot: ProcessSnapshot, field: UInt) -> UInt? {
    let memory = snapshot.memory
    guard
      let loader = snapshot.images.images.first(where: {
        $0.name.hasPrefix("ld-linux") || $0.name.hasPrefix("ld-")
      }),
      let debug = loader.address(ofSymbol: "_r_debug", kinds: .object),
      var map = memory.word(at: debug + 8)
    else { return nil }
    var seen = 0
    while map != 0, seen < 4096 {
      seen += 1
      if let name = memory.word(at: map + 8).flatMap({ memory.string(at: $0, maximumLength: 4096) }),
        name.hasSuffix("/libdispatch.so")
      {
        guard let offset = memory.word(at: map + field), offset > 0, offset < 1 << 24 else { return nil }
        return offset
      }
      map = memory.word(at: map + 24) ?? 0
    }
    return nil
  }
}
