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
    let table = ScratchBuffer<UInt32>()
    for value in 0..<UInt32(3_000_000) { table.append(value) }
    #expect(table.capacity * 4 >= 2 << 20)
    #expect(UInt(bitPattern: table.base) % Self.hugePage == 0)
    #expect((0..<3_000_000).allSatisfy { table[$0] == UInt32($0) })
  }
}
