import Testing

@testable import RetainGraph

/// Small `Set` and `Dictionary` tables (fewer than 64 buckets) keep their
/// occupied-bucket bitmap in one word whose bits past the last bucket are all
/// set. Only the buckets that exist may be read: past them lies whatever the
/// heap holds next to the storage.
///
/// These tests build a copy of a real storage whose element arrays are
/// followed by the address of a live decoy object, so that reading past the
/// last bucket finds it every time instead of only when the heap happens to
/// place an object there.
@Suite struct HashedStorageTests {
  /// A copy of the storage of a one-element hashed collection, with room for 64
  /// buckets in each element array; every slot past the real buckets holds `decoy`.
  final class ForgedStorage {
    let bytes: UnsafeMutableRawPointer
    let bucketCount: Int

    /// Copies the `headerSize` bytes of header and the bitmap word of `storage`,
    /// then, for each element array (its pointer at `pointerOffsets`, with `strides`),
    /// the real buckets, and fills the rest of 64 buckets with `decoy`.
    init(
      copying storage: UnsafeRawPointer, headerSize: Int, pointerOffsets: [Int], strides: [Int], decoy: UInt
    ) {
      bucketCount = 1 << Int(storage.load(fromByteOffset: 32, as: UInt8.self))
      let arraySizes = strides.map { 64 * $0 }
      bytes = .allocate(byteCount: headerSize + 8 + arraySizes.reduce(0, +), alignment: 16)
      bytes.copyMemory(from: storage, byteCount: headerSize + 8)
      var next = headerSize + 8
      for (index, offset) in pointerOffsets.enumerated() {
        let array = bytes + next
        for word in 0..<(arraySizes[index] / 8) {
          array.storeBytes(of: decoy, toByteOffset: word * 8, as: UInt.self)
        }
        let source = UnsafeRawPointer(bitPattern: storage.load(fromByteOffset: offset, as: UInt.self))!
        array.copyMemory(from: source, byteCount: bucketCount * strides[index])
        bytes.storeBytes(of: UInt(bitPattern: array), toByteOffset: offset, as: UInt.self)
        next += arraySizes[index]
      }
    }

    deinit { bytes.deallocate() }

    var address: UInt { UInt(bitPattern: bytes) }
  }

  func labels(ofStorageAt address: UInt, engine: ReflectionEngine) -> [String] {
    engine.references(of: address).references.map(\.label)
  }

  @Test func smallSetsReadOnlyTheirBuckets() throws {
    let screen = Screen()
    let decoy = Helper()
    let engine = try #require(ReflectionEngine.safe)
    let set: Set<Screen> = [screen]
    withExtendedLifetime((screen, decoy, set)) {
      let storage = unsafeBitCast(set, to: UnsafeRawPointer.self)
      let forged = ForgedStorage(
        copying: storage, headerSize: 56, pointerOffsets: [48], strides: [8],
        decoy: RetainExplainer.address(of: decoy))
      #expect(forged.bucketCount < 64)
      #expect(labels(ofStorageAt: forged.address, engine: engine) == ["[0]"])
    }
  }

  @Test func smallDictionariesReadOnlyTheirBuckets() throws {
    let screen = Screen()
    let decoy = Helper()
    let engine = try #require(ReflectionEngine.safe)
    let dictionary: [Screen: Screen] = [screen: screen]
    withExtendedLifetime((screen, decoy, dictionary)) {
      let storage = unsafeBitCast(dictionary, to: UnsafeRawPointer.self)
      let forged = ForgedStorage(
        copying: storage, headerSize: 64, pointerOffsets: [48, 56], strides: [8, 8],
        decoy: RetainExplainer.address(of: decoy))
      #expect(forged.bucketCount < 64)
      #expect(labels(ofStorageAt: forged.address, engine: engine) == ["keys[0]", "values[0]"])
    }
  }

  @Test func setsOfEverySmallScaleListEachElementOnce() {
    let explainer = RetainExplainer(searchesMemory: false)
    for count in [1, 2, 3, 5, 11, 23, 47, 95] {
      let model = Model()
      let screens = (0..<count).map { _ in Screen() }
      model.members = Set(screens)
      let labels = explainer.references(of: model).filter { $0.label.hasPrefix("members[") }.map(\.label)
      #expect(labels == (0..<count).map { "members[\($0)]" }, "count \(count)")
    }
  }
}
