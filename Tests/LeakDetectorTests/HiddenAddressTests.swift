import Testing

@testable import LeakDetector

/// What the detector keeps about an object must not read as a pointer to it:
/// `leaklab leaks` and the memory search scan every word conservatively.
@Suite struct HiddenAddressTests {
  final class Named {}

  @Test func theNameTableKeysAnObjectByItsAddressInverted() {
    let object = Named()
    let address = UInt(bitPattern: ObjectIdentifier(object))
    let key = InstanceNames.Key(object)
    #expect(key.inverted != address)
    #expect(~key.inverted == address)
    #expect(key == InstanceNames.Key(object))
    #expect(key != InstanceNames.Key(Named()))
  }

  @Test func namesStayStableForTheSameObject() {
    var names = InstanceNames()
    let first = Named()
    let second = Named()
    #expect(names.name(of: first) == "Named#1")
    #expect(names.name(of: second) == "Named#2")
    #expect(names.name(of: first) == "Named#1")
  }
}
