import RetainGraph
import Testing

/// An explanation lives as long as its report: its `ObjectInfo`s must not hold
/// the leaked object's address as a pointer a conservative scan would follow.
@Suite struct ObjectInfoTests {
  final class Leaked {}

  @Test func anObjectInfoHoldsNoPlainCopyOfItsAddress() {
    let object = Leaked()
    let address = UInt(bitPattern: ObjectIdentifier(object))
    var info = ObjectInfo(address: address, typeName: "Leaked")
    #expect(info.address == address)
    let words = withUnsafeBytes(of: info) { raw in
      (0..<raw.count / 8).map { raw.load(fromByteOffset: $0 * 8, as: UInt.self) }
    }
    #expect(!words.contains(address))
    info.address = address + 16
    #expect(info.address == address + 16)
    #expect(info == ObjectInfo(address: address + 16, typeName: "Leaked"))
    withExtendedLifetime(object) {}
  }
}
