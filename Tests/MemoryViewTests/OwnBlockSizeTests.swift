import Glibc
import LeakLabTestSupport
import Testing

@testable import MemoryView

/// The size of one of this process's own blocks, from glibc's chunk header:
/// what RetainGraph uses to bound the scan of an object no metadata sizes.
@Suite(.memoryViewSupported) struct OwnBlockSizeTests {
  @Test(arguments: [24, 300, 1000, 200_000])
  func theUsableSizeIsMallocsOwn(requested: Int) throws {
    let block = try #require(malloc(requested))
    defer { free(block) }
    let address = UInt(bitPattern: block)
    let size = ProcessSnapshot.usableSizeOfOwnBlock(at: address) { ProcessMemory.current.word(at: $0) }
    let usable = try #require(size)
    // glibc adds at most a word and 16-byte rounding; a mmapped block rounds to a page.
    let slack = requested >= 128 * 1024 ? 4096 : 24
    #expect(usable >= requested && usable <= requested + slack, "\(usable) for \(requested)")
  }

  @Test func aHeaderThatIsNotOneGivesNothing() {
    // A size not a multiple of 16 is no chunk size.
    let words: [UInt: UInt] = [0x1000 - 8: 0x1234_5678]
    #expect(ProcessSnapshot.usableSizeOfOwnBlock(at: 0x1000) { words[$0] } == nil)
  }

  /// The word before a block freed and reused while the explainer looks can
  /// be any word: measured, the live app's background search trapped on one
  /// too large for an `Int`.
  @Test(arguments: [UInt.max & ~15, 1 << 63, 1 << 47])
  func aHeaderNoAddressSpaceHoldsGivesNothing(header: UInt) {
    #expect(ProcessSnapshot.usableSizeOfOwnBlock(at: 0x1000) { $0 == 0x1000 - 8 ? header : nil } == nil)
  }
}
