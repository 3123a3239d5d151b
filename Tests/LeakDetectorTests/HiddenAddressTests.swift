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

  /// An expectation holds its object unowned, by an address kept inverted:
  /// neither while it waits for the grace delay nor after a sweep consumed
  /// it (its slot in the queue's chunk stays until the chunk is used up)
  /// does a word of the detector hold the object. A consumed one's plain
  /// address made a leaked alert "held from memory no metadata describes".
  @MainActor
  @Test(.memoryViewSupported) func anExpectationPendingOrConsumedLeavesNoWordThatHoldsItsObject() throws {
    let scheduler = ManualScheduler()
    let detector = LeakDetector(scheduler: scheduler)
    let object = Named()
    detector.expectDeallocation(of: object)
    func holders() throws -> [String] {
      let model = try HeapModel(snapshot: try ProcessSnapshot.ofFrozenCopy())
      let block = try #require(model.block(containing: UInt(bitPattern: ObjectIdentifier(object))))
      return model.edges(into: block).filter { $0.kind != .back && $0.kind != .conservative }
        .map { model.describe($0.source) }
    }
    let pending = try holders()
    #expect(pending.isEmpty, "waiting for the grace delay: \(pending)")
    // A later expectation keeps the chunk in use after the first is consumed.
    scheduler.advance(by: .milliseconds(500))
    let later = Named()
    detector.expectDeallocation(of: later)
    scheduler.advance(by: .milliseconds(600))
    #expect(detector.summaryLabel == "Leaked: Named#1")
    let consumed = try holders()
    #expect(consumed.isEmpty, "after the sweep: \(consumed)")
    withExtendedLifetime((detector, object, later)) {}
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
