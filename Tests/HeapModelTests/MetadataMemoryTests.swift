import LeakLabTestSupport
import MemoryView
import Testing

@testable import HeapModel

/// The Swift runtime's metadata memory in the heap model.
///
/// In a process of its own: which blocks only the runtime's caches hold
/// depends on what else lives in the process (a concurrent test's snapshot
/// holds copies of every word).
@Suite(.serialized, .memoryViewSupported, .inProcessOfItsOwn("MetadataMemoryTests"))
struct MetadataMemoryTests {
  /// A generic class of this file's own: its instantiation cache is made by this test.
  final class Pair<First, Second> {}

  /// The Swift runtime's caches of type metadata (a generic type's
  /// instantiation cache, `…MI`; libswiftCore's C++ statics) are its
  /// metadata memory, with the blocks only they hold: none of their words
  /// is believed to hold an object, whatever room its count leaves.
  @Test func theRuntimesMetadataCachesAreMetadataMemoryThatHoldsNoObject() throws {
    let pair = Pair<Int, String>()
    try withExtendedLifetime(pair) {
      let model = try HeapModel(snapshot: try ProcessSnapshot.ofFrozenCopy())
      let cacheWords = model.metadataRootPositions.map { model.rootAddresses.base![$0] }
      let named = cacheWords.compactMap { word in
        model.snapshot.images.image(containing: word)?.symbol(containing: word, kinds: .object)?.name
      }
      #expect(named.contains { $0.contains("4PairC") && $0.hasSuffix("MI") }, "\(Set(named).sorted())")
      #expect(named.contains("_ZL12Conformances"))
      #expect(!model.metadataBlocks.isEmpty)
      let believed = model.metadataBlocks.flatMap { model.edges(from: $0) }.filter {
        model.kind(of: $0.target).isSwiftObject && model.holdsLife($0)
      }
      #expect(believed.isEmpty)
      let core = try #require(model.snapshot.images.images.first { $0.name.hasPrefix("libswiftCore.") })
      #expect(model.isMetadataCacheWord(try #require(core.address(ofSymbol: "_ZL12Conformances"))))
      #expect(!model.isMetadataCacheWord(try #require(core.address(ofSymbol: "_swiftEmptyArrayStorage"))))
    }
  }
}

@Test(.memoryViewSupported, .runsSuitesAlone) func metadataMemoryTestsPassInAProcessOfTheirOwn() throws {
  try ProcessOfItsOwn.expectPasses("HeapModelTests.MetadataMemoryTests")
}
