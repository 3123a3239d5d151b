import CRemoteMirror

/// How a reference holds what it points at.
package enum SlotStrength: UInt8, Sendable, Hashable {
  /// Keeps the target alive (`var`, `let`, a closure capture).
  case strong
  /// Points at the target's side table; does not keep the target alive (`weak`).
  case weak
  /// Keeps the target's memory, not its life (`unowned`).
  case unowned
  /// Counted by hand or not at all (`unowned(unsafe)`, `Unmanaged`).
  case unmanaged
}

/// Where a reference lives inside a value, relative to the value's start.
///
/// Computed once per type from Remote Mirror metadata, then applied to every
/// instance with plain memory reads.
package enum Slot: Sendable {
  /// A class reference; `nil` (0) and the low extra inhabitants are skipped.
  case reference(offset: Int, strength: SlotStrength, label: String)
  /// A thick function: function pointer, then the context one word later.
  case function(offset: Int, label: String)
  /// An `Array`, `ContiguousArray`, `Dictionary` or `Set`: one word pointing at its storage.
  case collection(offset: Int, label: String)
  /// An enum or an existential whose contents depend on the instance.
  case dynamic(offset: Int, typeRef: RMTypeRef, isEnum: Bool, label: String)
  /// An unsafe pointer (`UnsafeMutableRawPointer`, `OpaquePointer`, a raw
  /// continuation): it retains nothing, but the memory it points to (a buffer
  /// the object allocated) is held through it.
  case rawPointer(offset: Int, label: String)

  package var offset: Int {
    switch self {
    case .reference(let offset, _, _), .function(let offset, _), .collection(let offset, _),
      .dynamic(let offset, _, _, _), .rawPointer(let offset, _):
      offset
    }
  }

  package var label: String {
    switch self {
    case .reference(_, _, let label), .function(_, let label), .collection(_, let label),
      .dynamic(_, _, _, let label), .rawPointer(_, let label):
      label
    }
  }

  /// The same slot, moved by `delta` bytes and labelled under `parent`.
  package func nested(at delta: Int, under parent: String) -> Slot {
    func join(_ label: String) -> String { Slot.join(parent, label) }
    switch self {
    case .reference(let offset, let strength, let label):
      return .reference(offset: offset + delta, strength: strength, label: join(label))
    case .function(let offset, let label): return .function(offset: offset + delta, label: join(label))
    case .collection(let offset, let label): return .collection(offset: offset + delta, label: join(label))
    case .dynamic(let offset, let typeRef, let isEnum, let label):
      return .dynamic(offset: offset + delta, typeRef: typeRef, isEnum: isEnum, label: join(label))
    case .rawPointer(let offset, let label): return .rawPointer(offset: offset + delta, label: join(label))
    }
  }

  /// `parent.label`, `parent[3]`, or either alone when the other is empty.
  package static func join(_ parent: String, _ label: String) -> String {
    if parent.isEmpty { return label }
    if label.isEmpty { return parent }
    return label.first == "[" ? parent + label : "\(parent).\(label)"
  }
}

/// The references of a value type, and the parts of it no metadata describes.
package struct ValueSlots: Sendable {
  package var slots: [Slot]
  /// Byte ranges (relative to the value's start) whose layout is unknown: a
  /// `Mutex`, an `Atomic`, a type without reflection metadata. Their words
  /// are read conservatively.
  package var opaqueRanges: [Range<Int>]

  package var hasOpaqueParts: Bool { !opaqueRanges.isEmpty }

  package init(slots: [Slot], opaqueRanges: [Range<Int>] = []) {
    self.slots = slots
    self.opaqueRanges = opaqueRanges
  }

  package static let none = ValueSlots(slots: [])

  /// A value none of whose bytes can be laid out.
  package static func opaque(size: Int) -> ValueSlots {
    ValueSlots(slots: [], opaqueRanges: size > 0 ? [0..<size] : [])
  }

  /// These slots and ranges moved by `delta` bytes and labelled under `parent`.
  package func nested(at delta: Int, under parent: String) -> ValueSlots {
    ValueSlots(
      slots: slots.map { $0.nested(at: delta, under: parent) },
      opaqueRanges: opaqueRanges.map { ($0.lowerBound + delta)..<($0.upperBound + delta) })
  }

  package mutating func append(_ other: ValueSlots) {
    slots += other.slots
    opaqueRanges += other.opaqueRanges
  }
}

/// How to find the outgoing references of one kind of Swift heap object.
package struct HeapLayout: Sendable {
  /// The shape of the object's contents.
  package enum Shape: Sendable {
    /// Stored fields or captures.
    case fields([Slot])
    /// `_ContiguousArrayStorage<Element>`: count at 16, elements from 32.
    case arrayStorage(element: ValueSlots, stride: Int)
    /// `_DictionaryStorage<Key, Value>`.
    case dictionaryStorage(key: ValueSlots, keyStride: Int, value: ValueSlots, valueStride: Int)
    /// `_SetStorage<Element>`.
    case setStorage(element: ValueSlots, stride: Int)
    /// A native string's storage: code units, and a pointer to its
    /// breadcrumbs only when its capacity word's top bit says so.
    case stringStorage
    /// Storage that holds nothing (the empty singletons).
    case empty
  }

  package var kind: BlockKind
  /// The name a developer writes: `FeedService`, `closure`, `Array storage`.
  package var typeName: String
  /// The module-qualified name (`Feed.FeedService`), when the type has one.
  package var qualifiedName: String?
  /// Bytes of the instance that the slots cover (a class's instance size, a
  /// closure context's size); 0 when no metadata says.
  package var size: Int
  package var shape: Shape
  /// Byte ranges of the instance whose layout no metadata gives (fields of
  /// unknown layout): read conservatively.
  package var opaqueRanges: [Range<Int>]
  /// Whether the object's block holds memory past its Swift fields that no
  /// metadata describes: a CoreFoundation object behind Foundation's bridge
  /// class (`__NSCFType`), a class that allocates its own tail
  /// (`ManagedBuffer`). The tail is read conservatively.
  package var hasOpaqueTail: Bool
  /// What a census of live objects calls the type: the type name, or for a
  /// storage its collection and element types (`Array<Node> storage`).
  package var censusName: String
  /// Whether the object is a key path, whose tail buffer says its own length.
  package var isKeyPath = false
  /// Whether the block holds a lock after the fields (`AsyncStream`'s
  /// storage): the block is larger than the class, and those words (and
  /// malloc's slack after them) hold no reference.
  package var hasLockTail = false

  package init(
    kind: BlockKind, typeName: String, qualifiedName: String? = nil, size: Int, shape: Shape,
    opaqueRanges: [Range<Int>] = [], hasOpaqueTail: Bool = false
  ) {
    self.kind = kind
    self.typeName = typeName
    self.qualifiedName = qualifiedName
    self.size = size
    self.shape = shape
    self.opaqueRanges = opaqueRanges
    self.hasOpaqueTail = hasOpaqueTail
    censusName = typeName
  }

  /// Whether some of the object's memory must be read conservatively.
  package var scansConservatively: Bool { !opaqueRanges.isEmpty || hasOpaqueTail }

  /// The module of the type (`Feed` for `Feed.FeedService`).
  package var module: String? {
    guard let qualifiedName, let dot = qualifiedName.firstIndex(of: ".") else { return nil }
    return String(qualifiedName[..<dot])
  }
}
