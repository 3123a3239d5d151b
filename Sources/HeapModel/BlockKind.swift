/// What a malloc block of a process is, as far as its memory and the Swift
/// metadata tell: the heap model reads each kind's references its own way.
public enum BlockKind: UInt8, Sendable, Hashable, CaseIterable, Codable {
  /// An instance of a Swift class: its fields, exactly.
  case object
  /// The context of a Swift closure: its captures, exactly.
  case closureContext
  /// A Swift box: a captured `var`, a generic or indirect payload, an error.
  case box
  /// The storage of a native `Array` or `ContiguousArray`: its elements up to its count.
  case arrayStorage
  /// The storage of a native `Dictionary`: the occupied buckets only.
  case dictionaryStorage
  /// The storage of a native `Set`: the occupied buckets only.
  case setStorage
  /// A native `String`'s storage: code units, no references.
  case stringStorage
  /// A Swift async task.
  case task
  /// A slab of a Swift task's allocator: its async frames, up to what is in use.
  case taskFrames
  /// A weak reference's side table: it points back at its object without holding it.
  case sideTable
  /// A C Block (the Blocks runtime's heap copy of a `^{}` or a Swift closure bridged to one).
  case block
  /// An object of a C or C++ runtime: its first word points into an image (a
  /// vtable, an isa: Dispatch, CoreFoundation, ICU objects).
  case cObject
  /// Memory known to hold bytes only, never references (a stdio buffer).
  case bytes
  /// Memory an allocator keeps for reuse after it was freed (a Dispatch
  /// continuation on a thread's cache): free, though malloc counts it live.
  case cached
  /// Memory malloc keeps for itself (a thread's tcache).
  case allocator
  /// Any other malloc block: C memory, read conservatively.
  case mallocBlock

  /// Whether the block is a Swift heap object with reference counts.
  public var isSwiftObject: Bool {
    switch self {
    case .object, .closureContext, .box, .arrayStorage, .dictionaryStorage, .setStorage, .stringStorage,
      .task:
      true
    default: false
    }
  }

  /// Whether the block is free memory that malloc counts as live: never a
  /// leak, never read for references.
  public var isFree: Bool { self == .cached || self == .allocator }

  /// One byte per raw value, 1 for the Swift objects' kinds: the C loops'
  /// way to ask ``isSwiftObject``.
  static let swiftObjectTable: [UInt8] = (0..<256).map { raw in
    BlockKind(rawValue: UInt8(raw))?.isSwiftObject == true ? 1 : 0
  }

  /// Whether the block is one of the native collection storages.
  public var isCollectionStorage: Bool {
    self == .arrayStorage || self == .dictionaryStorage || self == .setStorage
  }
}

/// How a reference in the heap model holds its target.
public enum EdgeKind: UInt8, Sendable, Hashable, CaseIterable {
  /// A strong reference Swift metadata names: a field, a capture, an element.
  case strong
  /// An `unowned` reference: holds the target's memory, not its life.
  case unowned
  /// A `weak` reference: holds the target's side table only.
  case weak
  /// An `unowned(unsafe)` or `Unmanaged` reference: counted by hand, if at all.
  case unmanaged
  /// A word that only looks like a pointer: in C memory, or in a part of a
  /// Swift object its metadata cannot lay out.
  case conservative
  /// A side table's pointer back at its object: never holds it.
  case back

  /// Whether Swift metadata names this reference.
  public var isExact: Bool { self != .conservative }

  /// Whether the reference keeps its target's memory allocated (what a leak
  /// check asks): everything but a side table's back pointer. A conservative
  /// or unmanaged reference into a Swift object counts only while the
  /// object's strong count leaves room for it (``HeapModel/admitsUncounted(into:)``).
  public var holdsMemory: Bool { self != .back }

  /// Whether the reference can keep its target alive (what "why is it alive" asks).
  public var holdsLife: Bool { self == .strong || self == .conservative || self == .unmanaged }
}
