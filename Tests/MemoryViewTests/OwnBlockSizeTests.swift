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
    // glibc's own answer: a request rounds up to a chunk, and a chunk whose
    // rest is too small to split (under 32 bytes) is handed out whole, so
    // what a block holds depends on the heap around it.
    #expect(size == Self.mallocUsableSize(block))
    #expect(try #require(size) >= requested)
  }

  /// glibc's `malloc_usable_size` (declared in `<malloc.h>`, which Glibc's module leaves out).
  static let mallocUsableSize: @convention(c) (UnsafeMutableRawPointer?) -> Int = {
    let symbol = dlsym(UnsafeMutableRawPointer(bitPattern: 0), "malloc_usable_size")
    return unsafeBitCast(symbol, to: (@convention(c) (UnsafeMutableRawPointer?) -> Int).self)
  }()

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
