import CMemoryView
import Testing

@testable import MemoryView

/// The block index against a search of the block table itself, on tables
/// laid out as glibc lays out its blocks (16-byte aligned, gaps of free
/// chunks between them) and off that grid.
@Suite struct BlockIndexTests {
  /// `MV_INTERIOR_BIT` in a lookup's answer.
  private let interiorBit: Int64 = 1 << 31

  /// Blocks from `layout`: (gap before the block, block size), from `base`.
  private func tables(_ layout: [(gap: UInt, size: UInt)], base: UInt) -> (
    ScratchBuffer<UInt>, ScratchBuffer<UInt>
  ) {
    let starts = ScratchBuffer<UInt>()
    let sizes = ScratchBuffer<UInt>()
    var address = base
    for (gap, size) in layout {
      address += gap
      starts.append(address)
      sizes.append(size)
      address += size
    }
    return (starts, sizes)
  }

  /// What `mv_lookUp` must answer for `value`: the block that contains it,
  /// with the interior bit unless it lies in the block's first 8 bytes.
  private func expected(_ value: UInt, starts: ScratchBuffer<UInt>, sizes: ScratchBuffer<UInt>) -> Int64 {
    for block in 0..<starts.count {
      let start = starts.base![block]
      guard value >= start, value - start < sizes.base![block] else { continue }
      return Int64(block) | (value - start < 8 ? 0 : interiorBit)
    }
    return -1
  }

  private func checkEveryAddress(
    _ layout: [(gap: UInt, size: UInt)], base: UInt, aligned: Bool, regions: (UInt, UInt) -> [Range<UInt>]
  ) {
    let (starts, sizes) = tables(layout, base: base)
    let end = starts.base![starts.count - 1] + sizes.base![sizes.count - 1]
    let blockIndex = BlockIndex(starts: starts, sizes: sizes, regions: regions(base, end))
    var index = blockIndex.raw
    #expect(index.aligned == aligned)
    var wrong: [UInt] = []
    for value in stride(from: base - 64, to: end + 64, by: 1) {
      if mv_lookUp(&index, value) != expected(value, starts: starts, sizes: sizes) {
        wrong.append(value - base)
      }
    }
    withExtendedLifetime(blockIndex) {}
    let firstWrong = Array(wrong.prefix(8))
    #expect(firstWrong.isEmpty, "\(wrong.count) offsets answered wrongly")
  }

  /// Sizes and gaps of 16-byte multiples, some blocks longer than a bucket.
  private let alignedLayout: [(gap: UInt, size: UInt)] = (0..<300).map {
    (block: Int) -> (gap: UInt, size: UInt) in
    let gap: UInt = block % 7 == 0 ? 48 : 0
    let size: UInt = block % 23 == 0 ? 1_040 : 32 + UInt(block * 37 % 9) * 16
    return (gap, size)
  }

  @Test func everyAddressOfAlignedBlocksIsFoundAsTheTableSays() {
    #expect(alignedLayout.count == 300)
    checkEveryAddress(alignedLayout, base: 0x10_0000, aligned: true) { start, end in [start..<end] }
  }

  @Test func blocksOffTheSixteenByteGridAreFoundAsTheTableSays() {
    // A block starting 8 bytes into a 16-byte step: the index cannot trust
    // its map there and reads the table.
    var layout = alignedLayout
    layout[40].gap += 8
    layout[41].size += 8
    checkEveryAddress(layout, base: 0x10_0000, aligned: false) { start, end in [start..<end] }
  }

  @Test func blocksInSeveralRegionsAndARegionOfOneBlockAreFound() {
    // The first 100 blocks, then the rest 1 MiB further on, then one large
    // block alone in its own region (a chunk of its own mapping).
    var layout = alignedLayout
    layout[100].gap += 1 << 20
    layout.append((gap: 4096, size: 200_000))
    let (starts, sizes) = tables(layout, base: 0x10_0000)
    let count = starts.count
    let secondStart = starts.base![100]
    let lastStart = starts.base![count - 1]
    let blockIndex = BlockIndex(
      starts: starts, sizes: sizes,
      regions: [
        0x10_0000..<(secondStart - 16), (secondStart - 16)..<(lastStart - 16),
        (lastStart - 16)..<(lastStart + 200_000),
      ])
    var index = blockIndex.raw
    #expect(index.regionCount == 3)
    let probes: [UInt] =
      [0x10_0000 - 8, secondStart - 8, lastStart - 1]
      + (0..<count).flatMap { block -> [UInt] in
        let start = starts.base![block]
        let size = sizes.base![block]
        return [start, start + 7, start + 8, start + 15, start + 16, start + size - 1, start + size]
      }
    let wrong = probes.filter { mv_lookUp(&index, $0) != expected($0, starts: starts, sizes: sizes) }
    withExtendedLifetime(blockIndex) {}
    let firstWrong = wrong.prefix(8).map { String($0, radix: 16) }
    #expect(firstWrong.isEmpty, "\(wrong.count) addresses answered wrongly")
  }

  @Test func aRegionOfOneBlockBelowTheOthersIsFound() {
    // A chunk of its own mapping at the lowest address: the index's first
    // region has no buckets (its table was not yet mapped: a crash).
    var layout: [(gap: UInt, size: UInt)] = [(gap: 0, size: 300_000)]
    layout += alignedLayout
    layout[1].gap += 1 << 20
    let (starts, sizes) = tables(layout, base: 0x10_0000)
    let second = starts.base![1]
    let blockIndex = BlockIndex(
      starts: starts, sizes: sizes,
      regions: [0x10_0000..<(second - 16), (second - 16)..<(second + (1 << 22))])
    var index = blockIndex.raw
    #expect(index.regionCount == 2)
    let probes: [UInt] = [
      0x10_0000, 0x10_0000 + 8, 0x10_0000 + 299_999, 0x10_0000 + 300_000, second, second + 8,
    ]
    let answers = probes.map { mv_lookUp(&index, $0) }
    withExtendedLifetime(blockIndex) {}
    #expect(answers == [0, interiorBit, interiorBit, -1, 1, 1 | interiorBit])
  }

  @Test func aTaggedReferenceIsFoundWithoutItsTagAndACountWordIsNot() {
    let (starts, sizes) = tables(alignedLayout, base: 0x10_0000)
    let blockIndex = BlockIndex(starts: starts, sizes: sizes, regions: [0x10_0000..<0x20_0000])
    var index = blockIndex.raw
    defer { withExtendedLifetime(blockIndex) {} }
    let start = starts.base![5]
    #expect(mv_lookUp(&index, start | 0x0100_0000_0000_0000) == 5)
    #expect(mv_lookUp(&index, (start + 16) | 0x0100_0000_0000_0000) == 5 | interiorBit)
    #expect(mv_lookUp(&index, start | 0xC000_0000_0000_0000) == -1)
    #expect(mv_findBlock(&index, start + 16) == 5)
  }
}
