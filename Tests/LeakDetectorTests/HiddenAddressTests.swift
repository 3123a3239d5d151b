import HeapModel
import LeakClock
import LeakLabTestSupport
import MemoryView
import Testing

@testable import LeakDetector

/// What the detector keeps about an object must not read as a pointer to it:
/// `leaklab leaks` and the memory search scan every word conservatively.
@Suite struct HiddenAddressTests {
  final class Named {}

  @Test func theNameTableKeysAnObjectByItsAddressInverted() {
    let object = Named()
    let address = UInt(bitPattern: ObjectIdentifier(object))
    let key = InvertedAddress(object)
    #expect(key.inverted != address)
    #expect(~key.inverted == address)
    #expect(key == InvertedAddress(object))
    #expect(key != InvertedAddress(Named()))
  }

  /// A budget's members and the objects a decision ignores are held weakly
  /// and keyed by their address inverted: in a snapshot of the process, no
  /// word of the detector's tables holds them (an `ObjectIdentifier` key
  /// reads as an unsafe pointer, the likeliest holder an object's count
  /// admits).
  @MainActor
  @Test(.memoryViewSupported) func aBudgetAndAnIgnoredObjectLeaveNoWordThatHoldsThem() throws {
    let scheduler = ManualScheduler()
    let detector = LeakDetector(scheduler: scheduler)
    let member = Named()
    let ignored = Named()
    detector.track(member, maxCount: 1)
    detector.onDetect = { _ in .ignore }
    detector.expectDeallocation(of: ignored)
    scheduler.advance(by: .seconds(2))
    try withExtendedLifetime((detector, member, ignored)) {
      let model = try HeapModel(snapshot: try ProcessSnapshot.ofFrozenCopy())
      for object in [member, ignored] {
        let address = UInt(bitPattern: ObjectIdentifier(object))
        let block = try #require(model.block(containing: address))
        let holders = model.edges(into: block).filter { $0.kind != .back && $0.kind != .conservative }
        #expect(holders.isEmpty, "\(holders.map { model.describe($0.source) })")
      }
    }
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
