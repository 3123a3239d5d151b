/// Reads memory window by window and finds the words that point into live
/// blocks: the inner loop of every conservative scan.
///
/// A word counts when its value lies inside a live block (its start or its
/// middle: an interior pointer); words are read at 8-byte alignment. Windows are copies in a
/// scratch mapping, so the scan never loads from the scanned memory itself.
struct WordScanner {
  let heap: MallocHeap
  let reader: WindowedReader<ProcessMemory>
  static let windowSize = 1 << 20

  init(heap: MallocHeap, memory: ProcessMemory) {
    self.heap = heap
    reader = WindowedReader(memory: memory, capacity: Self.windowSize)
  }

  /// Calls `body(wordAddress, targetBlock, pointsAtStart)` for each word of
  /// `range` that points into a live block.
  @inline(__always)
  func scan(_ range: Range<UInt>, _ body: (UInt, Int, Bool) -> Void) {
    var address = (range.lowerBound + 7) & ~7
    while address + 8 <= range.upperBound {
      let copied = reader.load(address, limit: range.upperBound)
      if copied < 8 {
        // Unreadable here (a guard page, memory unmapped since): skip a page.
        address = (address + 4096) & ~4095
        continue
      }
      scanWindow(base: address, words: copied / 8, body)
      address += UInt(copied / 8 * 8)
    }
  }

  /// Calls `body(wordAddress, targetBlock)` for each word that points into a
  /// live block, in the contents of every block but `skip`-ped ones, block by
  /// block; `perBlock` starts each block (returning false skips it).
  ///
  /// `secondWord(block, value)` sees each block's second word (where a Swift
  /// object keeps its reference counts) when the block is read whole.
  func scanBlocks(
    _ perBlock: (Int) -> Bool, secondWord: (Int, UInt) -> Void = { _, _ in },
    _ body: (Int, UInt, Int, Bool) -> Void
  ) {
    var position = 0
    let count = heap.count
    while position < count {
      let start = heap.starts[position]
      let window = reader.load(start, limit: start + UInt(Self.windowSize))
      guard window >= 8 else {
        position += 1
        continue
      }
      let windowEnd = start + UInt(window)
      // Every block that fits in this window.
      var next = position
      while next < count, heap.starts[next] + heap.sizes[next] <= windowEnd {
        if perBlock(next) {
          let blockStart = heap.starts[next]
          if heap.sizes[next] >= 16, let bytes = reader.bytes.baseAddress {
            secondWord(next, bytes.loadUnaligned(fromByteOffset: Int(blockStart - start) + 8, as: UInt.self))
          }
          scanWindow(base: blockStart, from: Int(blockStart - start), words: Int(heap.sizes[next] / 8)) {
            body(next, $0, $1, $2)
          }
        }
        next += 1
      }
      if next == position {
        // One block larger than a window: scan it in pieces.
        let block = position
        if perBlock(block) {
          scan(heap.starts[block]..<heap.starts[block] + heap.sizes[block]) { body(block, $0, $1, $2) }
        }
        next += 1
      }
      position = next
    }
  }

  @inline(__always)
  private func scanWindow(base: UInt, from offset: Int = 0, words: Int, _ body: (UInt, Int, Bool) -> Void) {
    guard let bytes = reader.bytes.baseAddress else { return }
    let first = (bytes + offset).assumingMemoryBound(to: UInt.self)
    for position in 0..<words {
      if let (target, atStart) = resolve(first[position]) { body(base + UInt(position * 8), target, atStart) }
    }
  }

  /// The block a word points into, and whether it points at its start.
  ///
  /// Swift keeps tag bits in pointers: a `String`'s storage and multi-payload
  /// enums in the top byte, spare low bits in others. A word whose top byte
  /// is set is looked up again without it (unless its top two bits are both
  /// set: a reference count word pointing at a side table, shifted, not a
  /// pointer); a word within the first 8 bytes of a block counts as its start.
  @inline(__always)
  func resolve(_ value: UInt) -> (Int, Bool)? {
    let index = heap.blockIndex
    if let target = index.lookUp(value) { return (target, value - heap.starts[target] < 8) }
    guard value >> 56 != 0, value >> 62 != 3 else { return nil }
    let stripped = value & 0x00FF_FFFF_FFFF_FFFF
    guard let target = index.lookUp(stripped) else { return nil }
    return (target, stripped - heap.starts[target] < 8)
  }
}
