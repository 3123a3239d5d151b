import Glibc
import LeakLabTestSupport
import Testing

@testable import MemoryView

/// What the scan assumes of Swift objects: weak references go through a side
/// table that must not count as holding the object.
@Suite(.memoryViewSupported) struct SwiftObjectTests {
  final class Target {
    var payload = [1, 2, 3]
  }

  final class WeakHolder {
    weak var target: Target?
  }

  @Test func aWeakReferencesSideTableIsNotAReferrerOfItsObject() throws {
    let target = Target()
    let holder = WeakHolder()
    holder.target = target
    try withExtendedLifetime((target, holder)) {
      let snapshot = try ProcessSnapshot()
      let graph = PointerGraph(snapshot: snapshot)
      let address = UInt(bitPattern: Unmanaged.passUnretained(target).toOpaque())
      let block = try #require(snapshot.heap.index(containing: address))
      #expect(graph.sideTableCount >= 1)
      // A side table's first word points back at its object.
      let backPointers = graph.referringBlocks(of: block).filter {
        snapshot.memory.word(at: snapshot.heap[$0].address) == address
      }
      #expect(backPointers.isEmpty)
      let unfiltered = PointerGraph(snapshot: snapshot, options: [])
      #expect(
        unfiltered.referringBlocks(of: block).contains {
          snapshot.memory.word(at: snapshot.heap[$0].address) == address
        })
    }
  }

  enum Payload {
    case first(Target)
    case second(Target)
  }

  @Test func aPointerWithAnEnumTagInItsTopBitsIsFollowed() throws {
    let holder: [Payload] = [.first(Target()), .second(Target())]
    try withExtendedLifetime(holder) {
      let snapshot = try ProcessSnapshot()
      let graph = PointerGraph(snapshot: snapshot)
      let storage = holder.withUnsafeBufferPointer { UInt(bitPattern: $0.baseAddress!) }
      let storageBlock = try #require(snapshot.heap.index(containing: storage))
      // The second case keeps its tag in the top bits of the pointer.
      let tagged = try #require(snapshot.memory.word(at: storage + 8))
      #expect(tagged >> 56 != 0)
      let target = try #require(snapshot.heap.index(containing: tagged & 0x00FF_FFFF_FFFF_FFFF))
      #expect(graph.referencedBlocks(from: storageBlock).contains(target))
    }
  }
}
