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
  func scanBlocks(_ perBlock: (Int) -> Bool, _ body: (Int, UInt, Int, Bool) -> Void) {
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
    let index = heap.index
    for position in 0..<words {
      let value = first[position]
      if let target = index.lookUp(value) {
        body(base + UInt(position * 8), target, heap.starts[target] == value)
      }
    }
  }
}
