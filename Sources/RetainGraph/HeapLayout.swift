import CRemoteMirror

/// Where a reference lives inside a value, relative to the value's start.
///
/// Computed once per type from Remote Mirror metadata, then applied to every
/// instance with plain memory reads.
enum Slot {
  /// A class reference; `nil` (0) and the low extra inhabitants are skipped.
  case reference(offset: Int, strength: ReferenceStrength, label: String)
  /// A thick function: function pointer, then the context one word later.
  case function(offset: Int, label: String)
  /// An `Array`, `ContiguousArray`, `Dictionary` or `Set`: one word pointing at its storage.
  case collection(offset: Int, label: String)
  /// An enum or an existential whose contents depend on the instance.
  case dynamic(offset: Int, typeRef: RMTypeRef, isEnum: Bool, label: String)

  var offset: Int {
    switch self {
    case .reference(let offset, _, _), .function(let offset, _), .collection(let offset, _),
      .dynamic(let offset, _, _, _):
      offset
    }
  }

  /// The same slot, moved by `delta` bytes and labelled under `parent`.
  func nested(at delta: Int, under parent: String) -> Slot {
    func join(_ label: String) -> String {
      if parent.isEmpty { return label }
      return label.isEmpty ? parent : "\(parent).\(label)"
    }
    switch self {
    case .reference(let offset, let strength, let label):
      return .reference(offset: offset + delta, strength: strength, label: join(label))
    case .function(let offset, let label): return .function(offset: offset + delta, label: join(label))
    case .collection(let offset, let label): return .collection(offset: offset + delta, label: join(label))
    case .dynamic(let offset, let typeRef, let isEnum, let label):
      return .dynamic(offset: offset + delta, typeRef: typeRef, isEnum: isEnum, label: join(label))
    }
  }
}

/// The references of a value type, and whether part of it could not be seen.
struct ValueSlots {
  var slots: [Slot]
  var hasOpaqueParts: Bool

  static let none = ValueSlots(slots: [], hasOpaqueParts: false)
}

/// How to find the outgoing references of one kind of heap object.
struct HeapLayout {
  /// The shape of the object's contents.
  enum Shape {
    /// Stored fields or captures.
    case fields([Slot])
    /// `_ContiguousArrayStorage<Element>`: count at 16, elements from 32.
    case arrayStorage(element: ValueSlots, stride: Int)
    /// `_DictionaryStorage<Key, Value>`.
    case dictionaryStorage(key: ValueSlots, keyStride: Int, value: ValueSlots, valueStride: Int)
    /// `_SetStorage<Element>`.
    case setStorage(element: ValueSlots, stride: Int)
    /// Storage that holds nothing (the empty singletons).
    case empty
  }

  var kind: ObjectKind
  var typeName: String
  /// Bytes of the instance that the slots cover.
  var size: Int
  var shape: Shape
  /// Part of the object has no usable metadata: scan its memory for object addresses.
  var scansConservatively: Bool
}

/// An outgoing reference found in memory, before it is described for the caller.
struct RawEdge {
  var label: String
  var target: UInt
  var strength: ReferenceStrength
  var isConservative: Bool
  /// The closure's function pointer when the reference is a closure value, else 0.
  var function: UInt
}
