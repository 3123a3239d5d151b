import MemoryView

/// A local copy of a process's malloc heaps, read in large pieces, so that a
/// mark can scan every block without a system call per block.
///
/// Memory: the heaps' size (about 100 MB for a million small objects),
/// released when the copy goes.
final class HeapCopy {
  private struct Piece {
    var range: Range<UInt>
    var bytes: UnsafeMutableRawPointer
  }
  private var pieces: [Piece] = []
  /// Bytes copied.
  private(set) var byteCount = 0

  init(heap: MallocHeap, memory: ProcessMemory) {
    let chunk = 4 << 20
    for range in heap.heapRanges.sorted(by: { $0.lowerBound < $1.lowerBound }) where !range.isEmpty {
      // Block contents may end 8 bytes past a heap (the next chunk's prev_size word).
      let extended = range.lowerBound..<(range.upperBound + 16)
      let bytes = UnsafeMutableRawPointer.allocate(byteCount: extended.count, alignment: 16)
      bytes.initializeMemory(as: UInt8.self, repeating: 0, count: extended.count)
      var offset = 0
      while offset < extended.count {
        let want = min(chunk, extended.count - offset)
        let got = memory.read(
          extended.lowerBound + UInt(offset),
          into: UnsafeMutableRawBufferPointer(start: bytes + offset, count: want))
        offset += max(got, 0) == 0 ? want : got  // an unreadable piece stays zero
      }
      pieces.append(Piece(range: extended, bytes: bytes))
      byteCount += extended.count
    }
  }

  deinit {
    for piece in pieces { piece.bytes.deallocate() }
  }

  /// The copied bytes of `address ..< address + count`, or nil when they are not all in one copied heap.
  @inline(__always)
  func bytes(at address: UInt, count: Int) -> UnsafeRawPointer? {
    var low = 0
    var high = pieces.count
    while low < high {
      let middle = (low + high) >> 1
      if pieces[middle].range.upperBound <= address { low = middle + 1 } else { high = middle }
    }
    guard low < pieces.count else { return nil }
    let piece = pieces[low]
    guard address >= piece.range.lowerBound, address + UInt(count) <= piece.range.upperBound else {
      return nil
    }
    return UnsafeRawPointer(piece.bytes + Int(address - piece.range.lowerBound))
  }
}
