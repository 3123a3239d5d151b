import RetainGraph

/// What a heap block of the target is, as its Swift metadata tells.
struct BlockLayout {
  /// The kind of Swift heap object.
  enum Kind: Equatable {
    /// A class instance.
    case object
    /// A closure context: the heap object holding a closure's captures.
    case closureContext
    /// A box (a captured `var`, an indirect enum payload, an error).
    case box
    /// The storage of an `Array` or `ContiguousArray`: elements of `stride`
    /// bytes from offset 32, each laid out as `element`.
    case arrayStorage(stride: Int, element: [FieldSlot])
    /// The storage of a `Dictionary` or `Set` (elements anywhere after the header).
    case hashedStorage
  }

  var kind: Kind
  /// The module-qualified type name (`Feed.FeedService`), or a description
  /// (`closure context`).
  var qualifiedName: String
  /// The instance size the metadata gives (0 when unknown).
  var size: Int
  /// Every field or capture, sorted by offset.
  var slots: [FieldSlot]

  /// The name a developer writes: `FeedService`.
  var typeName: String {
    switch kind {
    case .object: TypeNames.unqualified(qualifiedName)
    case .closureContext: "closure context"
    case .box: "box"
    case .arrayStorage: "Array storage"
    case .hashedStorage: qualifiedName.hasPrefix("Swift._SetStorage") ? "Set storage" : "Dictionary storage"
    }
  }

  /// The slot holding the word at `offset`, and what that word is to it.
  func slot(at offset: Int) -> (slot: FieldSlot, role: FieldSlot.WordRole)? {
    if case .arrayStorage(let stride, let element) = kind, offset >= 32, stride > 0 {
      let index = (offset - 32) / stride
      let inner = (offset - 32) % stride
      let found = FieldSlot.find(inner, in: element)
      let label = "[\(index)]" + (found.map { $0.slot.label.isEmpty ? "" : ".\($0.slot.label)" } ?? "")
      let slot = FieldSlot(
        offset: offset - inner, size: stride, label: label, role: found?.slot.role ?? .data)
      return (slot, found?.role ?? .conservative)
    }
    if case .hashedStorage = kind, offset >= 64 {
      return (FieldSlot(offset: offset, size: 8, label: "element", role: .data), .conservative)
    }
    return FieldSlot.find(offset, in: slots)
  }
}

/// Where a field, capture or part of one lies in a block, and what it holds.
struct FieldSlot: Equatable {
  /// What the bytes of a slot hold.
  enum Role: Equatable {
    /// A class reference of this strength.
    case reference(ReferenceStrength)
    /// A closure: function pointer, then its context.
    case function
    /// Anything else: plain data, an enum with payloads, an existential, an
    /// unsafe pointer. A word there that points into a block is a
    /// conservative find.
    case data
  }

  /// What one word of a slot is.
  enum WordRole: Equatable {
    /// The reference itself, as typed.
    case exact(ReferenceStrength)
    /// A closure's context (strong).
    case closureContext
    /// A closure's function pointer.
    case closureFunction
    /// A word that only looks like a pointer.
    case conservative
  }

  var offset: Int
  var size: Int
  /// `delegate`, `captures[1]`, `state.handler`.
  var label: String
  var role: Role

  /// The same slot placed `delta` bytes further and named under `parent`.
  func nested(at delta: Int, under parent: String) -> FieldSlot {
    let joined: String
    if parent.isEmpty {
      joined = label
    } else if label.isEmpty {
      joined = parent
    } else {
      joined = label.first == "[" ? parent + label : "\(parent).\(label)"
    }
    return FieldSlot(offset: offset + delta, size: size, label: joined, role: role)
  }

  /// The slot among `slots` (sorted by offset) that covers `offset`.
  static func find(_ offset: Int, in slots: [FieldSlot]) -> (slot: FieldSlot, role: WordRole)? {
    var low = 0
    var high = slots.count
    while low < high {
      let middle = (low + high) / 2
      if slots[middle].offset <= offset { low = middle + 1 } else { high = middle }
    }
    guard low > 0 else { return nil }
    let slot = slots[low - 1]
    guard offset < slot.offset + max(slot.size, 8) else { return nil }
    switch slot.role {
    case .reference(let strength): return (slot, offset == slot.offset ? .exact(strength) : .conservative)
    case .function:
      if offset == slot.offset { return (slot, .closureFunction) }
      return (slot, offset == slot.offset + 8 ? .closureContext : .conservative)
    case .data: return (slot, .conservative)
    }
  }
}
