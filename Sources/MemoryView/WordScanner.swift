import CMemoryView

/// Reads memory window by window and finds the words that point into live
/// blocks: the inner loop of every conservative scan (in C: see
/// CMemoryViewScan.h).
///
/// A word counts when its value lies inside a live block (its start or its
/// middle: an interior pointer); words are read at 8-byte alignment. Swift
/// keeps tag bits in pointers: a word whose top byte is set is looked up
/// again without it (unless its top two bits are both set: a reference count
/// word), and a word within the first 8 bytes of a block counts as its start.
/// Windows are copies in a scratch mapping, so the scan never loads from the
/// scanned memory itself.
struct WordScanner {
  let heap: MallocHeap
  let reader: WindowedReader
  private var index: MVBlockIndex
  private let positions: ScratchBuffer<UInt32>
  private let targets: ScratchBuffer<UInt32>
  static let windowSize = 1 << 20

  init(heap: MallocHeap, memory: ProcessMemory) {
    self.heap = heap
    reader = WindowedReader(memory: memory, capacity: Self.windowSize)
    index = heap.blockIndex.raw
    positions = ScratchBuffer(capacity: Self.windowSize / 8)
    targets = ScratchBuffer(capacity: Self.windowSize / 8)
  }

  /// The block `value` points into, and whether it points at its start.
  @inline(__always)
  func resolve(_ value: UInt) -> (Int, Bool)? {
    var index = self.index
    let found = mv_lookUp(&index, value)
    guard found >= 0 else { return nil }
    return (Int(UInt32(found) & ~PointerGraph.interiorBit), UInt32(found) & PointerGraph.interiorBit == 0)
  }

  /// Calls `body(wordAddress, targetBlock, pointsAtStart)` for each word of
  /// `range` that points into a live block.
  func scan(_ range: Range<UInt>, _ body: (UInt, Int, Bool) -> Void) {
    var index = self.index
    var address = (range.lowerBound + 7) & ~7
    while address + 8 <= range.upperBound {
      let copied = reader.load(address, limit: range.upperBound)
      guard copied >= 8, let bytes = reader.bytes.baseAddress else {
        // Unreadable here (a guard page, memory unmapped since): skip a page.
        address = (address + 4096) & ~4095
        continue
      }
      let words = bytes.assumingMemoryBound(to: UInt.self)
      let hits = mv_scanRootWords(&index, words, copied / 8, positions.base, targets.base)
      for hit in 0..<hits {
        let target = targets[hit]
        body(
          address + UInt(positions[hit]) * 8, Int(target & ~PointerGraph.interiorBit),
          target & PointerGraph.interiorBit == 0)
      }
      address += UInt(copied / 8 * 8)
    }
  }

  /// The first three words of a block (0 past its end).
  typealias BlockHead = (UInt, UInt, UInt)

  /// Appends to `edges` a `source << 32 | target` entry (target with its
  /// interior bit) for each word of every live block that points into
  /// another block, block by block in address order. `extent(block, head,
  /// bytes)` gives the words of the block to scan (nil: none), from its first
  /// three words (where a Swift object keeps its metadata and reference
  /// counts, a task slab its bump offset) and its bytes as read (nil for a
  /// block larger than a window).
  func scanBlocks(
    into edges: ScratchBuffer<UInt64>, extent: (Int, BlockHead, UnsafeRawPointer?) -> Range<Int>?
  ) {
    var index = self.index
    var position = 0
    let count = heap.count
    let starts = heap.startPointer
    let sizes = heap.sizePointer
    while position < count {
      let start = starts[position]
      let window = reader.load(start, limit: start + UInt(Self.windowSize))
      guard window >= 8, let bytes = reader.bytes.baseAddress else {
        position += 1
        continue
      }
      let windowEnd = start + UInt(window)
      // Every block that fits in this window.
      var next = position
      while next < count, starts[next] + sizes[next] <= windowEnd {
        let words = Int(sizes[next]) / 8
        let offset = Int(starts[next] - start)
        let block = (bytes + offset).assumingMemoryBound(to: UInt.self)
        let head = (words > 0 ? block[0] : 0, words > 1 ? block[1] : 0, words > 2 ? block[2] : 0)
        if let range = extent(next, head, UnsafeRawPointer(block))?.clamped(to: 0..<words), !range.isEmpty {
          edges.reserve(edges.count + range.count)
          let written = mv_scanBlockWords(
            &index, block + range.lowerBound, range.count, UInt32(next), edges.base.map { $0 + edges.count })
          edges.grow(by: written)
        }
        next += 1
      }
      if next == position {
        // One block larger than a window: scan it in pieces.
        let block = position
        let address = starts[block]
        let head = (
          reader.memory.word(at: address) ?? 0, reader.memory.word(at: address + 8) ?? 0,
          reader.memory.word(at: address + 16) ?? 0
        )
        if let range = extent(block, head, nil)?.clamped(to: 0..<Int(sizes[block]) / 8), !range.isEmpty {
          scan(address + UInt(range.lowerBound * 8)..<address + UInt(range.upperBound * 8)) {
            _, target, atStart in
            guard target != block else { return }
            edges.append(
              UInt64(block) << 32 | UInt64(UInt32(target) | (atStart ? 0 : PointerGraph.interiorBit)))
          }
        }
        next += 1
      }
      position = next
    }
  }
}
