import Testing

@testable import RetainGraph

/// Caches keyed by an address must not outlive what was at that address.
@Suite struct AddressReuseTests {
  /// Memory that holds garbage, then a copy of `Screen`'s class metadata, at the
  /// same address: what the runtime does when it places new generic metadata in
  /// heap memory that a dying object's stale words pointed at.
  @Test func metadataAtAnAddressThatHeldGarbageIsRecognised() throws {
    let engine = try #require(ReflectionEngine.safe)
    let model = Model()
    let screen = Screen()
    screen.model = model
    try withExtendedLifetime((model, screen)) {
      let metadata = try #require(UnsafeRawPointer(bitPattern: unsafeBitCast(Screen.self, to: UInt.self)))
      let addressPoint = Int(metadata.load(fromByteOffset: 36, as: UInt32.self))
      let classSize = Int(metadata.load(fromByteOffset: 32, as: UInt32.self))
      let memory = UnsafeMutableRawPointer.allocate(byteCount: classSize, alignment: 16)
      defer { memory.deallocate() }
      let fakeMetadata = UInt(bitPattern: memory) + UInt(addressPoint)
      // An object-like block whose first word points at the future metadata.
      let object = UnsafeMutableRawPointer.allocate(byteCount: 64, alignment: 16)
      defer { object.deallocate() }
      object.copyMemory(from: Unmanaged.passUnretained(screen).toOpaque(), byteCount: 24)
      object.storeBytes(of: fakeMetadata, as: UInt.self)

      // First, garbage: words that look like heap pointers.
      for word in 0..<(classSize / 8) {
        memory.storeBytes(
          of: UInt(bitPattern: object) + UInt(word * 16), toByteOffset: word * 8, as: UInt.self)
      }
      // Not an object Remote Mirror knows: only a conservative scan sees the model.
      let before = engine.references(of: UInt(bitPattern: object)).references
      let allConservative = before.allSatisfy { $0.isConservative }
      #expect(allConservative)

      // Then metadata, at the same address.
      memory.copyMemory(from: metadata - addressPoint, byteCount: classSize)
      let labels = engine.references(of: UInt(bitPattern: object)).references.map(\.label)
      #expect(labels == ["model"])
    }
  }
}
