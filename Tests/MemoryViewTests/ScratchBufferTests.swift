import Testing

@testable import MemoryView

/// Scratch tables of 2 MiB and more start on a 2 MiB boundary, when first
/// mapped and after every growth, so that transparent huge pages can back
/// them from their first byte (the kernel places other mappings at any
/// page: the model's edge tables, grown from one page, were mostly 4 KiB
/// pages, a fault and a page to zero each).
@Suite struct ScratchBufferTests {
  static let hugePage = UInt(2 << 20)

  @Test func aLargeTableStartsOnAHugePageBoundary() {
    for elements in [(3 << 20) / 8 + 1, (5 << 20) / 8, 1_500_000] {
      let table = ScratchBuffer<UInt>(capacity: elements)
      #expect(UInt(bitPattern: table.base) % Self.hugePage == 0, "\(elements) elements")
    }
  }

  @Test func aTableThatGrowsPastTwoMebibytesMovesToABoundaryAndKeepsItsElements() {
    // Small first (placed anywhere), then grown by remapping: 10,000
    // elements written, not millions (seconds under AddressSanitizer).
    let table = ScratchBuffer<UInt32>()
    for value in 0..<UInt32(10_000) { table.append(value) }
    table.reserve(3 << 20 / 4)
    #expect(table.capacity * 4 >= 3 << 20)
    #expect(UInt(bitPattern: table.base) % Self.hugePage == 0)
    #expect(table.count == 10_000)
    #expect((0..<10_000).allSatisfy { table[$0] == UInt32($0) })
  }
}
