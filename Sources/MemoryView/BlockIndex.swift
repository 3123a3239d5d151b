import CMemoryView

/// Finds the block that contains an address in a few steps: a binary search
/// over the heaps, then a table with one entry per 512 bytes of heap giving
/// the first block that reaches past that point.
///
/// Every table lives in scratch mappings (see ``ScratchBuffer``).
struct BlockIndex {
  /// The index for the C scan loops (valid while the tables live and do not grow).
  var raw: MVBlockIndex {
    MVBlockIndex(
      low: low, high: high, regions: UnsafePointer(regions.base), regionCount: regions.count / 5,
      buckets: UnsafePointer(buckets.base), starts: UnsafePointer(starts.base),
      sizes: UnsafePointer(sizes.base),
      shift: UInt32(Self.bucketShift))
  }

  private let starts: ScratchBuffer<UInt>
  private let sizes: ScratchBuffer<UInt>
  /// Per region: start, end, first block, end block, first bucket.
  private let regions = ScratchBuffer<UInt>()
  private let buckets = ScratchBuffer<UInt32>()
  private let low: UInt
  private let high: UInt
  static let bucketShift: UInt = 9

  init(starts: ScratchBuffer<UInt>, sizes: ScratchBuffer<UInt>, regions heapRanges: [Range<UInt>]) {
    self.starts = starts
    self.sizes = sizes
    var block = 0
    var low = UInt.max
    var high: UInt = 0
    for range in heapRanges.sorted(by: { $0.lowerBound < $1.lowerBound }) {
      while block < starts.count, starts[block] < range.lowerBound { block += 1 }
      let first = block
      while block < starts.count, starts[block] < range.upperBound { block += 1 }
      guard block > first else { continue }
      // Block contents may end 8 bytes past the heap (the next chunk's prev_size word).
      let start = starts[first]
      let end = starts[block - 1] + sizes[block - 1]
      low = min(low, start)
      high = max(high, end)
      let firstBucket = UInt(buckets.count)
      if block - first > 1 {
        let count = Int((end - start + (1 << Self.bucketShift) - 1) >> Self.bucketShift)
        buckets.reserve(buckets.count + count)
        var cursor = first
        for bucket in 0..<count {
          let address = start + UInt(bucket) << Self.bucketShift
          while cursor < block - 1, starts[cursor] + sizes[cursor] <= address { cursor += 1 }
          buckets.append(UInt32(cursor))
        }
      }
      for value in [start, end, UInt(first), UInt(block), firstBucket] { regions.append(value) }
    }
    self.low = low
    self.high = high
  }

  /// Bytes of scratch memory the index uses.
  var byteCount: Int { regions.capacity * 8 + buckets.capacity * 4 }

  /// The block containing `address`, or nil.
  @inline(__always)
  func lookUp(_ address: UInt) -> Int? {
    guard address >= low, address < high else { return nil }
    let regionCount = regions.count / 5
    var lower = 0
    var upper = regionCount
    while lower < upper {
      let middle = (lower + upper) >> 1
      if regions[middle * 5 + 1] <= address { lower = middle + 1 } else { upper = middle }
    }
    guard lower < regionCount else { return nil }
    let base = lower * 5
    let start = regions[base]
    guard address >= start else { return nil }
    let endBlock = Int(regions[base + 3])
    var cursor = Int(regions[base + 2])
    if endBlock - cursor > 1 {
      cursor = Int(buckets[Int(regions[base + 4]) + Int((address - start) >> Self.bucketShift)])
    }
    while cursor < endBlock {
      let blockStart = starts[cursor]
      if blockStart > address { return nil }
      if address < blockStart + sizes[cursor] { return cursor }
      cursor += 1
    }
    return nil
  }
}
