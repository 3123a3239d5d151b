import CHeapModel
import CRemoteMirror

/// Where a slot was met: directly in an object, or in an element of its
/// storage, or in an enum's or existential's payload.
package struct SlotContext: Sendable {
  /// The element of a collection storage the slot is in.
  package enum Element: Sendable {
    case none
    /// An array's element `[index]`.
    case index(Int)
    /// A dictionary's key, a set's element, in order of occupied buckets.
    case key(Int)
    /// A dictionary's value, in order of occupied buckets.
    case value(Int)
  }

  package var element: Element = .none
  /// The label of the enum or existential whose payload holds the slot.
  package var payloadOf: String?

  /// The slot's label as a developer reads it: `delegate`, `[3].handler`,
  /// `values[0]`, `state.handler`.
  package func label(of slot: Slot, kind: BlockKind) -> String {
    var label = slot.label
    if let payloadOf { label = Slot.join(payloadOf, label) }
    switch element {
    case .none: return label
    case .index(let index): return Slot.join("[\(index)]", label)
    case .key(let ordinal): return Slot.join(kind == .setStorage ? "[\(ordinal)]" : "keys[\(ordinal)]", label)
    case .value(let ordinal): return Slot.join("values[\(ordinal)]", label)
    }
  }
}

/// What a walk of a Swift object reports.
package protocol ReferenceVisitor {
  /// A word Swift metadata calls a reference (or an unsafe pointer), at
  /// byte `offset` of the object.
  mutating func reference(_ word: UInt, at offset: Int, kind: EdgeKind, slot: Slot, context: SlotContext)
  /// Bytes `[from, to)` of the object that no metadata lays out.
  mutating func opaque(from: Int, to: Int, context: SlotContext)
}

/// Walks the references of one Swift object, as its layout places them:
/// fields and captures at their offsets, a storage's elements up to its
/// count or in its occupied buckets, payloads of enums and existentials as
/// the library projects them. The one place that knows where a Swift
/// object's references are: the heap model reads every object with it, and
/// labels a reference with it again when a path is named.
package struct ObjectWalk {
  let types: SwiftTypes
  /// The object's address in its process (for projections).
  let address: UInt
  /// The object's bytes, as copied.
  let bytes: UnsafeRawPointer
  let size: Int
  let layout: HeapLayout

  package init(types: SwiftTypes, address: UInt, bytes: UnsafeRawPointer, size: Int, layout: HeapLayout) {
    self.types = types
    self.address = address
    self.bytes = bytes
    self.size = size
    self.layout = layout
  }

  /// How many elements of an array storage are read: its count, as far as
  /// its block holds them (`size` at least the header's).
  static func arrayElementCount(_ bytes: UnsafeRawPointer, size: Int, stride: Int) -> Int {
    let count = bytes.load(fromByteOffset: Int(SOLArrayCountOffset), as: UInt.self)
    return Int(min(count, UInt((size - Int(SOLArrayElementsOffset)) / stride)))
  }

  /// Reports every reference and opaque range of the object to `visitor`;
  /// returns where the bytes the layout covers end (an opaque tail starts there).
  @discardableResult
  package func walk<Visitor: ReferenceVisitor>(_ visitor: inout Visitor) -> Int {
    var covered = max(16, min(layout.size, size))
    switch layout.shape {
    case .fields(let slots):
      apply(slots, at: 0, context: SlotContext(), visitor: &visitor)
    case .arrayStorage(let element, let stride):
      covered = size
      guard size >= Int(SOLArrayElementsOffset), stride > 0, !element.slots.isEmpty || element.hasOpaqueParts
      else { break }
      for item in 0..<Self.arrayElementCount(bytes, size: size, stride: stride) {
        let start = Int(SOLArrayElementsOffset) + item * stride
        applyValue(element, at: start, context: SlotContext(element: .index(item)), visitor: &visitor)
      }
    case .dictionaryStorage(let key, let keyStride, let value, let valueStride):
      covered = size
      guard size >= Int(SOLDictionaryBitmapOffset) else { break }
      let keys = bytes.load(fromByteOffset: Int(SOLHashedFirstArrayOffset), as: UInt.self)
      let values = bytes.load(fromByteOffset: Int(SOLDictionaryValuesOffset), as: UInt.self)
      for (ordinal, bucket) in Self.occupiedBuckets(
        bytes, size: size, bitmapOffset: Int(SOLDictionaryBitmapOffset)
      )
      .enumerated() {
        applyElement(
          key, base: keys, bucket: bucket, stride: keyStride, context: SlotContext(element: .key(ordinal)),
          visitor: &visitor)
        applyElement(
          value, base: values, bucket: bucket, stride: valueStride,
          context: SlotContext(element: .value(ordinal)),
          visitor: &visitor)
      }
    case .setStorage(let element, let stride):
      covered = size
      guard size >= Int(SOLSetBitmapOffset) else { break }
      let elements = bytes.load(fromByteOffset: Int(SOLHashedFirstArrayOffset), as: UInt.self)
      for (ordinal, bucket) in Self.occupiedBuckets(bytes, size: size, bitmapOffset: Int(SOLSetBitmapOffset))
        .enumerated()
      {
        applyElement(
          element, base: elements, bucket: bucket, stride: stride,
          context: SlotContext(element: .key(ordinal)),
          visitor: &visitor)
      }
    case .stringStorage:
      covered = size
      if let offset = Self.breadcrumbsOffset(bytes, size: size) {
        visitor.reference(
          bytes.load(fromByteOffset: offset, as: UInt.self), at: offset, kind: .strong,
          slot: .reference(offset: offset, strength: .strong, label: "breadcrumbs"), context: SlotContext())
      }
    case .empty:
      covered = size
    }
    for range in layout.opaqueRanges {
      visitor.opaque(from: range.lowerBound, to: min(range.upperBound, size), context: SlotContext())
    }
    return covered
  }

  private func applyValue<Visitor: ReferenceVisitor>(
    _ value: ValueSlots, at start: Int, context: SlotContext, visitor: inout Visitor
  ) {
    apply(value.slots, at: start, context: context, visitor: &visitor)
    for range in value.opaqueRanges {
      visitor.opaque(from: start + range.lowerBound, to: start + range.upperBound, context: context)
    }
  }

  /// Element `bucket` of a hashed storage's array at `base` (an address inside the storage's own block).
  private func applyElement<Visitor: ReferenceVisitor>(
    _ value: ValueSlots, base: UInt, bucket: UInt, stride: Int, context: SlotContext, visitor: inout Visitor
  ) {
    guard !value.slots.isEmpty || value.hasOpaqueParts, stride > 0 else { return }
    let elementAddress = base &+ bucket &* UInt(stride)
    guard elementAddress >= address, elementAddress - address + UInt(stride) <= UInt(size) else { return }
    applyValue(value, at: Int(elementAddress - address), context: context, visitor: &visitor)
  }

  private func apply<Visitor: ReferenceVisitor>(
    _ slots: [Slot], at start: Int, context: SlotContext, visitor: inout Visitor, depth: Int = 0
  ) {
    for slot in slots {
      let offset = start + slot.offset
      // A reference is word-aligned: a slot that is not (a storage read
      // while it changed can place its elements anywhere) is no reference,
      // and must not trap the load.
      guard offset >= 0, offset & 7 == 0, offset + 8 <= size else { continue }
      let word = bytes.load(fromByteOffset: offset, as: UInt.self)
      switch slot {
      case .reference(_, let strength, _):
        visitor.reference(word, at: offset, kind: EdgeKind(strength), slot: slot, context: context)
      case .collection:
        visitor.reference(word, at: offset, kind: .strong, slot: slot, context: context)
      case .rawPointer:
        visitor.reference(word, at: offset, kind: .unmanaged, slot: slot, context: context)
      case .function:
        // A closure's function pointer is never in the first page: there an
        // optional closure keeps `nil`, and its context word means nothing.
        guard offset + 16 <= size, word >= 4096 else { continue }
        visitor.reference(
          bytes.load(fromByteOffset: offset + 8, as: UInt.self), at: offset + 8, kind: .strong, slot: slot,
          context: context)
      case .dynamic(_, let typeRef, let isEnum, let label):
        guard depth < 8 else { continue }
        var inner = context
        inner.payloadOf = context.payloadOf.map { Slot.join($0, label) } ?? label
        applyDynamic(
          typeRef: typeRef, isEnum: isEnum, at: offset, context: inner, visitor: &visitor, depth: depth)
      }
    }
  }

  /// An enum with payloads or an existential: the library reads the value
  /// (in the process) to tell which case or type it holds.
  private func applyDynamic<Visitor: ReferenceVisitor>(
    typeRef: RMTypeRef, isEnum: Bool, at offset: Int, context: SlotContext, visitor: inout Visitor, depth: Int
  ) {
    let valueAddress = address + UInt(offset)
    if isEnum {
      var caseIndex: Int32 = -1
      guard swift_reflection_projectEnumValue(types.context, UInt64(valueAddress), typeRef, &caseIndex) != 0,
        caseIndex >= 0
      else { return }
      let payload = swift_reflection_childOfTypeRef(types.context, typeRef, UInt32(caseIndex))
      let info = swift_reflection_infoForTypeRef(types.context, typeRef)
      let inner = types.slotsOfChild(payload, size: Int(info.size))
      apply(inner.slots, at: offset, context: context, visitor: &visitor, depth: depth + 1)
      for range in inner.opaqueRanges {
        visitor.opaque(from: offset + range.lowerBound, to: offset + range.upperBound, context: context)
      }
      return
    }
    var instanceType: RMTypeRef = 0
    var instanceStart: UInt64 = 0
    guard
      swift_reflection_projectExistential(
        types.context, UInt64(valueAddress), typeRef, &instanceType, &instanceStart)
        != 0, instanceType != 0
    else { return }
    let start = UInt(instanceStart)
    if start >= address, start < address + UInt(size) {
      // Held inline, in the existential's own buffer.
      let inner = types.slots(ofType: instanceType)
      let at = Int(start - address)
      apply(inner.slots, at: at, context: context, visitor: &visitor, depth: depth + 1)
      for range in inner.opaqueRanges {
        visitor.opaque(from: at + range.lowerBound, to: at + range.upperBound, context: context)
      }
    } else {
      // Boxed out of line: the buffer's first word holds the box.
      visitor.reference(
        bytes.load(fromByteOffset: offset, as: UInt.self), at: offset, kind: .strong,
        slot: .reference(offset: 0, strength: .strong, label: ""), context: context)
    }
  }

  /// Where a string's storage keeps its one reference, the pointer to its
  /// breadcrumbs (UTF-16 offsets), when it has room for one: the word after
  /// its real capacity (the top bit of its capacity-and-flags says it is
  /// there; the low 48 bits are the capacity, code units and nul). The rest
  /// is code units, spare capacity never written and malloc's slack: no
  /// word there is a reference, though an unwritten one keeps what the block
  /// held before (the app's explanation of a leak, in a string, "held" the
  /// leak through such a word).
  static func breadcrumbsOffset(_ bytes: UnsafeRawPointer, size: Int) -> Int? {
    let offset = hm_breadcrumbsOffset(bytes.assumingMemoryBound(to: UInt8.self), size)
    return offset < 0 ? nil : Int(offset)
  }

  /// How far a storage object extends, from its header (`count` bytes read
  /// at `address`): an array's elements up to its count, a hashed storage's
  /// bitmap and element arrays. Nil when the header is not readable enough.
  package static func storageExtent(_ layout: HeapLayout, header: UnsafeRawPointer, count: Int, address: UInt)
    -> Int?
  {
    switch layout.shape {
    case .fields: return layout.size
    case .empty: return 16
    case .stringStorage: return Int(SOLStringHeaderSize)
    case .arrayStorage(_, let stride):
      guard count >= Int(SOLArrayElementsOffset) else { return nil }
      let elements = header.load(fromByteOffset: Int(SOLArrayCountOffset), as: UInt.self)
      guard elements <= 1 << 24 else { return nil }
      return Int(SOLArrayElementsOffset) + Int(elements) * stride
    case .dictionaryStorage(_, let keyStride, _, let valueStride):
      guard count >= Int(SOLDictionaryBitmapOffset) else { return nil }
      let scale = Int(header.load(fromByteOffset: Int(SOLHashedScaleOffset), as: UInt8.self))
      guard scale < 24 else { return nil }
      let buckets = 1 << scale
      let keys = header.load(fromByteOffset: Int(SOLHashedFirstArrayOffset), as: UInt.self)
      let values = header.load(fromByteOffset: Int(SOLDictionaryValuesOffset), as: UInt.self)
      let bitmapEnd = address + UInt(SOLDictionaryBitmapOffset) + UInt((buckets + 63) / 64 * 8)
      let end = max(bitmapEnd, keys &+ UInt(buckets * keyStride), values &+ UInt(buckets * valueStride))
      guard end > address, end - address < 1 << 28 else { return nil }
      return Int(end - address)
    case .setStorage(_, let stride):
      guard count >= Int(SOLSetBitmapOffset) else { return nil }
      let scale = Int(header.load(fromByteOffset: Int(SOLHashedScaleOffset), as: UInt8.self))
      guard scale < 24 else { return nil }
      let buckets = 1 << scale
      let elements = header.load(fromByteOffset: Int(SOLHashedFirstArrayOffset), as: UInt.self)
      let bitmapEnd = address + UInt(SOLSetBitmapOffset) + UInt((buckets + 63) / 64 * 8)
      let end = max(bitmapEnd, elements &+ UInt(buckets * stride))
      guard end > address, end - address < 1 << 28 else { return nil }
      return Int(end - address)
    }
  }

  /// The bucket index of each occupied bucket of a hashed storage, in bucket
  /// order. A table under 64 buckets keeps its bitmap in one word whose bits
  /// past the last bucket are set (`_HashTable.clear()` does so): those are
  /// not buckets. No more than the storage's count are given.
  package static func occupiedBuckets(_ bytes: UnsafeRawPointer, size: Int, bitmapOffset: Int) -> [UInt] {
    guard size >= bitmapOffset + 8 else { return [] }
    let count = bytes.load(fromByteOffset: Int(SOLHashedCountOffset), as: UInt.self)
    let scale = Int(bytes.load(fromByteOffset: Int(SOLHashedScaleOffset), as: UInt8.self))
    guard scale < 32 else { return [] }
    let bucketCount = 1 << scale
    guard count <= UInt(bucketCount) else { return [] }
    let wordCount = (bucketCount + 63) / 64
    guard bitmapOffset + wordCount * 8 <= size else { return [] }
    var buckets: [UInt] = []
    buckets.reserveCapacity(Int(count))
    for wordIndex in 0..<wordCount {
      var bits = bytes.load(fromByteOffset: bitmapOffset + wordIndex * 8, as: UInt.self)
      if bucketCount < 64 { bits &= (1 << UInt(bucketCount)) - 1 }
      while bits != 0, buckets.count < Int(count) {
        let bit = bits.trailingZeroBitCount
        bits &= bits - 1
        buckets.append(UInt(wordIndex * 64 + bit))
      }
    }
    return buckets
  }
}

extension EdgeKind {
  init(_ strength: SlotStrength) {
    switch strength {
    case .strong: self = .strong
    case .weak: self = .weak
    case .unowned: self = .unowned
    case .unmanaged: self = .unmanaged
    }
  }
}
