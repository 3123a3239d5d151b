import CRemoteMirror
import Testing

@testable import RetainGraph

#if canImport(Glibc)
  import Glibc
#endif

/// Memory that stops being the object the explainer inspected — freed,
/// reused, or overwritten by another thread — must never be followed, retained
/// or handed to the naming function. Each test builds such memory by hand and
/// runs in its own process (an exit test), so a fault fails only that test.
@Suite struct HostileMemoryTests {
  /// The header of an object freed and reused between the search and the
  /// naming: its metadata word still matches, its refcount word is what glibc
  /// writes into a freed block (a random key with the top bit set, which the
  /// runtime reads as a side table pointer).
  @Test func namingSkipsMemoryThatLooksLikeTheObjectButIsNot() async {
    await #expect(processExitsWith: .success) {
      let metadata = unsafeBitCast(Node.self, to: UInt.self)
      let block = UnsafeMutableRawPointer.allocate(byteCount: 64, alignment: 16)
      defer { block.deallocate() }
      block.initializeMemory(as: UInt8.self, repeating: 0, count: 64)
      block.storeBytes(of: metadata, as: UInt.self)
      block.storeBytes(of: 0xC6D2_1A4F_93B7_5E08, toByteOffset: 8, as: UInt.self)
      let address = UInt(bitPattern: block)
      let names = ObjectNaming.names(for: [address: metadata], fixed: [:]) { _ in
        Issue.record("the naming function was handed memory that is not an object")
        return "named"
      }
      #expect(names.isEmpty)
    }
  }

  /// The same, with a refcount word that decodes as a side table in memory
  /// that is not mapped at all.
  @Test func namingSkipsAnObjectWhoseSideTableIsGone() async {
    await #expect(processExitsWith: .success) {
      let metadata = unsafeBitCast(Node.self, to: UInt.self)
      let gone = UInt(bitPattern: unmappedPage())
      let block = UnsafeMutableRawPointer.allocate(byteCount: 64, alignment: 16)
      defer { block.deallocate() }
      block.initializeMemory(as: UInt8.self, repeating: 0, count: 64)
      block.storeBytes(of: metadata, as: UInt.self)
      let sideTableBits: UInt = (1 << 63) | (1 << 62) | (gone >> 3)
      block.storeBytes(of: sideTableBits, toByteOffset: 8, as: UInt.self)
      let names = ObjectNaming.names(for: [UInt(bitPattern: block): metadata], fixed: [:]) { _ in "named" }
      #expect(names.isEmpty)
    }
  }

  /// A live object is still retained and named, with or without a side table.
  @Test func liveObjectsAreStillNamed() {
    let plain = Node(1)
    let weaklyHeld = Node(2)
    weak var weakReference = weaklyHeld
    let metadata = unsafeBitCast(Node.self, to: UInt.self)
    let addresses = [plain, weaklyHeld].map { UInt(bitPattern: Unmanaged.passUnretained($0).toOpaque()) }
    let names = ObjectNaming.names(for: [addresses[0]: metadata, addresses[1]: metadata], fixed: [:]) {
      "Node#\(($0 as? Node)?.id ?? 0)"
    }
    #expect(names == [addresses[0]: "Node#1", addresses[1]: "Node#2"])
    #expect(weakReference === weaklyHeld)
    #expect(swift_retainCount(Unmanaged.passUnretained(plain).toOpaque()) == 1)
    #expect(swift_retainCount(Unmanaged.passUnretained(weaklyHeld).toOpaque()) == 1)
    weakReference = nil
  }

  /// A weak reference whose storage another thread overwrote (here: with the
  /// address of an unmapped page) is skipped, not loaded through the runtime.
  @Test func aWeakReferenceHoldingGarbageIsNotFollowed() async {
    await #expect(processExitsWith: .success) {
      let holder = WeakHolder()
      let target = Node(7)
      holder.target = target
      holder.strong = target
      let field = Unmanaged.passUnretained(holder).toOpaque() + 16
      let saved = field.load(as: UInt.self)
      field.storeBytes(of: UInt(bitPattern: unmappedPage()), as: UInt.self)
      let labels = RetainExplainer().references(of: holder).map(\.label)
      field.storeBytes(of: saved, as: UInt.self)
      #expect(labels == ["strong"])
      withExtendedLifetime(target) {}
    }
  }

  /// Direct reads of an object that ends right before unmapped memory: no
  /// read may go past the object's end.
  @Test func directReadsStopAtTheEndOfTheObject() async {
    await #expect(processExitsWith: .success) {
      let target = Node(3)
      let model = Unmanaged.passRetained(StrongHolder(target))
      defer { model.release() }
      let size = Int(class_instanceSize(StrongHolder.self))
      let pages = mmap(nil, 8192, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0)!
      mprotect(pages + 4096, 4096, PROT_NONE)
      let copy = pages + 4096 - ((size + 15) & ~15)
      copy.copyMemory(from: model.toOpaque(), byteCount: size)
      // Immortal: retains and releases of the copy do nothing.
      copy.storeBytes(of: (1 << 63) | (2 << 33) | 0xFFFF_FFFF, toByteOffset: 8, as: UInt.self)
      let object = Unmanaged<AnyObject>.fromOpaque(copy).takeUnretainedValue()
      let explainer = RetainExplainer(method: .only(.remoteMirrorDirectReads))
      let references = explainer.references(of: object)
      #expect(references.map(\.label) == ["target"])
      #expect(
        references.first?.target.address == UInt(bitPattern: Unmanaged.passUnretained(target).toOpaque()))
    }
  }
}

final class WeakHolder {
  weak var target: Node?
  var strong: Node?
}

final class StrongHolder {
  let target: Node
  init(_ target: Node) { self.target = target }
}

/// The start of a page that was mapped and then unmapped: reading it faults.
func unmappedPage() -> UnsafeMutableRawPointer {
  let page = mmap(nil, 4096, PROT_READ, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0)!
  munmap(page, 4096)
  return page
}

/// The instance size the runtime allocates for `type` (from its metadata).
func class_instanceSize(_ type: AnyClass) -> UInt32 {
  UnsafeRawPointer(bitPattern: unsafeBitCast(type, to: UInt.self))!.load(fromByteOffset: 24, as: UInt32.self)
}
