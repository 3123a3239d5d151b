import CMemoryView

/// Finds the block that contains an address in a few steps: a binary search
/// over the heaps, then a table with one entry per 512 bytes of heap: the
/// first block that starts in it or after it, and a bit per 16 bytes where
/// a block starts (see `mv_find`).
///
/// Every table lives in scratch mappings (see ``ScratchBuffer``).
package struct BlockIndex {
  /// The index for the C scan loops (valid while the tables live; they do not change after `init`).
  package private(set) var raw = MVBlockIndex()

  private let starts: ScratchBuffer<UInt>
  private let sizes: ScratchBuffer<UInt>
  /// Per region: start, end, first block, end block, first bucket.
  private let regions = ScratchBuffer<UInt>()
  private let buckets = ScratchBuffer<UInt64>()
  private let low: UInt
  private let high: UInt
  static let bucketShift = UInt(MV_BUCKET_SHIFT)
  static let granuleShift = UInt(MV_GRANULE_SHIFT)

  init(
    starts startTable: ScratchBuffer<UInt>, sizes sizeTable: ScratchBuffer<UInt>,
    regions heapRanges: [Range<UInt>]
  ) {
    self.starts = startTable
    self.sizes = sizeTable
    startTable.reserve(1)
    sizeTable.reserve(1)
    let count = startTable.count
    let starts = startTable.base!
    let sizes = sizeTable.base!
    var block = 0
    var low = UInt.max
    var high: UInt = 0
    var aligned = true
    for range in heapRanges.sorted(by: { $0.lowerBound < $1.lowerBound }) {
      while block < count, starts[block] < range.lowerBound { block += 1 }
      let first = block
      while block < count, starts[block] < range.upperBound { block += 1 }
      guard block > first else { continue }
      // Block contents may end 8 bytes past the heap (the next chunk's prev_size word).
      let start = starts[first]
      let end = starts[block - 1] + sizes[block - 1]
      low = min(low, start)
      high = max(high, end)
      let firstBucket = UInt(buckets.count)
      // A region of one block (a chunk of its own mapping) needs no buckets.
      let bucketCount =
        block - first == 1 ? 0 : Int((end - start + (1 << Self.bucketShift) - 1) >> Self.bucketShift)
      buckets.reserve(buckets.count + bucketCount + 1)
      let table = buckets.base! + buckets.count
      if bucketCount > 0, !mv_fillBuckets(starts, first, block, start, bucketCount, table) { aligned = false }
      buckets.grow(by: bucketCount)
      for value in [start, end, UInt(first), UInt(block), firstBucket] { regions.append(value) }
    }
    self.low = low
    self.high = high
    regions.reserve(1)
    buckets.reserve(1)
    raw = MVBlockIndex(
      low: low, high: high, regions: UnsafePointer(regions.base), regionCount: regions.count / 5,
      buckets: UnsafePointer(buckets.base), starts: UnsafePointer(startTable.base),
      sizes: UnsafePointer(sizeTable.base), aligned: aligned)
  }

  /// Bytes of scratch memory the index uses.
  var byteCount: Int { regions.capacity * 8 + buckets.capacity * 8 }

  /// The block containing `address`, or nil.
  @inline(__always)
  package func lookUp(_ address: UInt) -> Int? {
    var index = raw
    let found = mv_findBlock(&index, address)
    return found < 0 ? nil : Int(found)
  }
}
