import CRemoteMirror

#if canImport(Glibc)
  import Glibc
#endif

extension ReflectionSession {
  /// The layout for objects with `metadata`, computed once (from `instance` only
  /// for closure contexts, whose captures the library reads from the instance).
  ///
  /// The cache is keyed by metadata address, so only what belongs to the
  /// metadata may enter it. Metadata are never freed, but generic metadata live
  /// in heap memory the runtime may take over later: an address that is not
  /// metadata yet (a word read from a dying object, a conservative candidate)
  /// is neither cached nor shown to the library, whose own caches are keyed by
  /// address too. And an instance may die and its memory be reused while it is
  /// inspected: layouts computed from an instance are cached only when the
  /// instance still has `metadata` afterwards. A generic closure's context
  /// has one metadata for every binding of its generic parameters, but its
  /// captures are laid out for the binding the instance stores: such layouts
  /// are computed for each instance and never cached.
  func layout(metadata: UInt, instance: UInt) -> HeapLayout? {
    if let cached = layouts[metadata] { return cached }
    guard let kind = heapMetadataKind(metadata) else { return nil }
    let computed: HeapLayout?
    if kind == Self.classMetadataKind {
      computed = classLayout(metadata: metadata)
    } else {
      computed = instanceLayout(metadata: metadata, instance: instance)
      guard word(at: instance) == metadata else { return nil }
      if kind == Self.closureContextKind, !capturesHaveFixedLayout(contextMetadata: metadata) {
        return computed
      }
    }
    if layouts.count > 200_000 { layouts.removeAll(keepingCapacity: true) }
    layouts[metadata] = computed
    return computed
  }

  /// The metadata kind of a class (Swift classes without Objective-C interop).
  static let classMetadataKind: UInt = 0
  /// The metadata kind of a closure context ("heap local variable").
  static let closureContextKind: UInt = 0x400

  /// Whether every context with this metadata lays its captures out the same
  /// way: false for a generic closure, whose context carries the metadata of
  /// its generic arguments ("bindings", or "metadata sources" among its
  /// captures) and whose capture offsets depend on them.
  ///
  /// The context metadata holds, after its kind, the offset to the first
  /// capture (32 bits) and at +16 a pointer to its capture descriptor, which
  /// begins with three 32-bit counts: capture types, metadata sources,
  /// bindings. Unreadable means not fixed.
  func capturesHaveFixedLayout(contextMetadata metadata: UInt) -> Bool {
    guard let descriptor = word(at: metadata + 16) else { return false }
    if descriptor == 0 { return true }  // no captures described: nothing to lay out
    guard let counts = word(at: descriptor), let bindings = word(at: descriptor + 8) else { return false }
    let metadataSources = counts >> 32
    return metadataSources == 0 && bindings & 0xFFFF_FFFF == 0
  }

  /// The kind of the heap metadata at `metadata` (a class, a closure context, a
  /// box), or nil when the memory there does not look like heap metadata.
  func heapMetadataKind(_ metadata: UInt) -> UInt? {
    guard let kind = word(at: metadata) else { return nil }
    switch kind {
    case Self.classMetadataKind:
      // A class has a type descriptor in an image, after the fixed-size header
      // (kind, superclass, flags, instance address point, size, alignment mask,
      // reserved, class size, class address point).
      guard let descriptor = word(at: metadata + 40), Self.isPlausibleObject(descriptor & ~7) else {
        return nil
      }
      return kind
    case Self.closureContextKind, 0x500, 0x501:  // closure context, generic box, error box
      return kind
    default:
      return nil
    }
  }

  private func classLayout(metadata: UInt) -> HeapLayout? {
    let info = swift_reflection_infoForMetadata(context, metadata)
    guard info.kind == RMLayoutClassInstance else { return opaqueLayout(metadata: metadata, isClass: true) }
    let typeRef = swift_reflection_typeRefForMetadata(context, metadata)
    if let storage = storageLayout(typeRef: typeRef, typeName: typeName(of: metadata)) { return storage }
    var slots: [Slot] = []
    var opaque = false
    var current = metadata
    var currentInfo = info
    var depth = 0
    while current != 0, depth < 64 {
      if currentInfo.kind == RMLayoutClassInstance {
        let owner = current
        if let offsets = fieldOffsets(ofClass: owner, fieldCount: currentInfo.fieldCount) {
          collectFields(offsets: offsets, into: &slots, opaque: &opaque) {
            swift_reflection_childOfMetadata(context, owner, $0)
          }
        } else {
          opaque = true
        }
      } else if swift_reflection_typeRefForMetadata(context, current) != 0 {
        opaque = true
      }
      current = word(at: current + 8) ?? 0
      depth += 1
      if current != 0 { currentInfo = swift_reflection_infoForMetadata(context, current) }
    }
    return HeapLayout(
      kind: .object, typeName: typeName(of: metadata), size: instanceSize(ofClass: metadata) ?? 0,
      shape: .fields(slots), scansConservatively: opaque)
  }

  /// The instance size the runtime allocates for a class (32 bits at offset 24
  /// of its metadata), or nil when it is not a plausible object size.
  private func instanceSize(ofClass metadata: UInt) -> Int? {
    guard let word = word(at: metadata + 24) else { return nil }
    let size = Int(word & 0xFFFF_FFFF)
    return size >= 16 && size <= Self.maximumObjectSize ? size : nil
  }

  /// The offsets of the stored properties a class declares itself, in field
  /// descriptor order, read from the field offset vector in its metadata.
  ///
  /// Remote Mirror's own offsets cannot be trusted for classes: without
  /// Objective-C interop it finds where a class's fields begin by adding up
  /// the instance size of *every* ancestor, counting the fields of the
  /// grandparent and above more than once. In a class three or more levels
  /// deep whose ancestors have fields, its offsets point past the real field,
  /// at a neighbouring word (a witness table) or past the object. The field
  /// offset vector holds the numbers the runtime and compiled code use.
  ///
  /// Returns nil when the metadata does not describe exactly `fieldCount`
  /// fields or its offsets do not fit in the instance.
  func fieldOffsets(ofClass metadata: UInt, fieldCount: UInt32) -> [Int]? {
    guard fieldCount > 0 else { return [] }
    // Context descriptors are 4-byte aligned.
    guard let size = instanceSize(ofClass: metadata), let descriptor = word(at: metadata + 40),
      descriptor & 3 == 0, Self.isPlausibleObject(descriptor & ~7)
    else { return nil }
    // Class context descriptor: flags at 0, then at 36 the number of fields
    // and the field offset vector's offset in the metadata (in words), 32 bits each.
    guard let flagsWord = word(at: descriptor), let fieldsWord = word(at: descriptor + 36) else { return nil }
    let flags = UInt32(truncatingIfNeeded: flagsWord)
    let kindFlags = flags >> 16
    let vectorOffset = UInt(fieldsWord >> 32)
    guard flags & 0x1F == Self.classDescriptorKind, fieldsWord & 0xFFFF_FFFF == UInt(fieldCount),
      vectorOffset != 0, kindFlags & Self.immediateMembersAreNegative == 0
    else { return nil }
    var vector = metadata + vectorOffset * 8
    if kindFlags & Self.hasResilientSuperclass != 0 {
      // The offset counts from the end of the superclass's metadata, which the
      // runtime records (in bytes) in the class's resilient metadata bounds.
      guard let relative = word(at: descriptor + 24).map({ Int32(truncatingIfNeeded: $0) }),
        let immediateMembers = word(at: UInt(bitPattern: Int(bitPattern: descriptor + 24) + Int(relative))),
        immediateMembers & 7 == 0, immediateMembers < 1 << 20
      else { return nil }
      vector += immediateMembers
    }
    var offsets: [Int] = []
    offsets.reserveCapacity(Int(fieldCount))
    for index in 0..<UInt(fieldCount) {
      guard let offset = word(at: vector + index * 8), offset >= 16, offset <= UInt(size) else { return nil }
      offsets.append(Int(offset))
    }
    return offsets
  }

  /// The context descriptor kind of a class.
  private static let classDescriptorKind: UInt32 = 16
  /// Type context descriptor flags (the kind-specific half of the flags).
  private static let immediateMembersAreNegative: UInt32 = 1 << 12
  private static let hasResilientSuperclass: UInt32 = 1 << 13

  /// A class whose layout Remote Mirror cannot compute (a `Mutex` or `Atomic`
  /// field, a module without reflection metadata): opaque.
  private func opaqueLayout(metadata: UInt, isClass: Bool) -> HeapLayout? {
    guard swift_reflection_typeRefForMetadata(context, metadata) != 0 else { return nil }
    return HeapLayout(
      kind: .object, typeName: typeName(of: metadata),
      size: isClass ? instanceSize(ofClass: metadata) ?? 0 : 0,
      shape: .fields([]), scansConservatively: true)
  }

  private func instanceLayout(metadata: UInt, instance: UInt) -> HeapLayout? {
    let info = swift_reflection_infoForInstance(context, instance)
    switch info.kind {
    case RMLayoutClassInstance:
      return classLayout(metadata: metadata)
    case RMLayoutClosureContext:
      var slots: [Slot] = []
      var opaque = false
      let count = info.fieldCount
      for index in 0..<count {
        let child = swift_reflection_childOfInstance(context, instance, index)
        let label = count == 1 ? "captures" : "captures[\(index)]"
        let found = slotsOfChild(child)
        opaque = opaque || found.hasOpaqueParts
        slots += found.slots.map { $0.nested(at: Int(child.offset), under: label) }
      }
      return HeapLayout(
        kind: .closureContext, typeName: "closure", size: Int(info.size), shape: .fields(slots),
        scansConservatively: opaque)
    default:
      return opaqueLayout(metadata: metadata, isClass: false)
    }
  }

  /// Appends the slots of a class's own fields, placed at `offsets` (the
  /// runtime's, not Remote Mirror's).
  private func collectFields(
    offsets: [Int], into slots: inout [Slot], opaque: inout Bool, child: (UInt32) -> RMChildInfo
  ) {
    for (index, offset) in offsets.enumerated() {
      let field = child(UInt32(index))
      let name = field.name.map { String(cString: $0) } ?? "\(index)"
      let found = slotsOfChild(field)
      opaque = opaque || found.hasOpaqueParts
      slots += found.slots.map { $0.nested(at: offset, under: name) }
    }
  }

  func slotsOfChild(_ child: RMChildInfo) -> ValueSlots {
    if let strength = Self.strength(of: child.kind) {
      return ValueSlots(slots: [.reference(offset: 0, strength: strength, label: "")], hasOpaqueParts: false)
    }
    if child.kind == RMLayoutUnknown || child.typeRef == 0 {
      return ValueSlots(slots: [], hasOpaqueParts: child.kind == RMLayoutUnknown)
    }
    return slots(ofType: child.typeRef)
  }

  static func strength(of kind: RMLayoutKind) -> ReferenceStrength? {
    switch kind {
    case RMLayoutStrongReference: .strong
    case RMLayoutWeakReference: .weak
    case RMLayoutUnownedReference: .unowned
    case RMLayoutUnmanagedReference: .unmanaged
    default: nil
    }
  }

  /// The references inside a value of type `typeRef`, relative to its start.
  func slots(ofType typeRef: RMTypeRef, depth: Int = 0) -> ValueSlots {
    if let cached = valueSlots[typeRef] { return cached }
    let computed = computeSlots(ofType: typeRef, depth: depth)
    valueSlots[typeRef] = computed
    return computed
  }

  private func computeSlots(ofType typeRef: RMTypeRef, depth: Int) -> ValueSlots {
    guard depth < 24 else { return ValueSlots(slots: [], hasOpaqueParts: true) }
    let info = swift_reflection_infoForTypeRef(context, typeRef)
    if let strength = Self.strength(of: info.kind) {
      return ValueSlots(slots: [.reference(offset: 0, strength: strength, label: "")], hasOpaqueParts: false)
    }
    switch info.kind {
    case RMLayoutThickFunction:
      return ValueSlots(slots: [.function(offset: 0, label: "")], hasOpaqueParts: false)
    case RMLayoutStruct:
      if isCollection(typeRef) {
        return ValueSlots(slots: [.collection(offset: 0, label: "")], hasOpaqueParts: false)
      }
      return childSlots(of: typeRef, info: info, depth: depth, labelled: true)
    case RMLayoutTuple:
      return childSlots(of: typeRef, info: info, depth: depth, labelled: true)
    case RMLayoutClassExistential:
      return childSlots(of: typeRef, info: info, depth: depth, labelled: false)
    case RMLayoutSinglePayloadEnum:
      let payload = swift_reflection_childOfTypeRef(context, typeRef, 0)
      guard payload.typeRef != 0 else { return .none }
      let inner = slotsOfChild(payload)
      if inner.slots.isEmpty { return inner }
      // A single reference, closure or collection word at offset 0 is nil when 0.
      if inner.slots.count == 1, inner.slots[0].offset == 0, !inner.hasOpaqueParts,
        !isDynamic(inner.slots[0])
      {
        return inner
      }
      return ValueSlots(
        slots: [.dynamic(offset: 0, typeRef: typeRef, isEnum: true, label: "")], hasOpaqueParts: false)
    case RMLayoutMultiPayloadEnum:
      for index in 0..<info.fieldCount {
        let payload = swift_reflection_childOfTypeRef(context, typeRef, index)
        let inner = slotsOfChild(payload)
        if !inner.slots.isEmpty || inner.hasOpaqueParts {
          return ValueSlots(
            slots: [.dynamic(offset: 0, typeRef: typeRef, isEnum: true, label: "")], hasOpaqueParts: false)
        }
      }
      return .none
    case RMLayoutOpaqueExistential:
      return ValueSlots(
        slots: [.dynamic(offset: 0, typeRef: typeRef, isEnum: false, label: "")], hasOpaqueParts: false)
    case RMLayoutErrorExistential:
      return ValueSlots(slots: [.reference(offset: 0, strength: .strong, label: "")], hasOpaqueParts: false)
    case RMLayoutUnknown:
      return ValueSlots(slots: [], hasOpaqueParts: true)
    default:
      return .none
    }
  }

  private func isDynamic(_ slot: Slot) -> Bool {
    if case .dynamic = slot { return true }
    return false
  }

  private func childSlots(of typeRef: RMTypeRef, info: RMTypeInfo, depth: Int, labelled: Bool) -> ValueSlots {
    var result = ValueSlots.none
    for index in 0..<info.fieldCount {
      let child = swift_reflection_childOfTypeRef(context, typeRef, index)
      var label = ""
      if labelled {
        let name = child.name.map { String(cString: $0) } ?? ""
        label = name.isEmpty ? "\(index)" : name
      }
      let inner: ValueSlots
      if let strength = Self.strength(of: child.kind) {
        inner = ValueSlots(
          slots: [.reference(offset: 0, strength: strength, label: "")], hasOpaqueParts: false)
      } else if child.kind == RMLayoutUnknown || child.typeRef == 0 {
        inner = ValueSlots(slots: [], hasOpaqueParts: child.kind == RMLayoutUnknown)
      } else {
        inner = slots(ofType: child.typeRef, depth: depth + 1)
      }
      result.hasOpaqueParts = result.hasOpaqueParts || inner.hasOpaqueParts
      result.slots += inner.slots.map { $0.nested(at: Int(child.offset), under: label) }
    }
    return result
  }

  // MARK: Names and collections

  func name(of typeRef: RMTypeRef) -> String {
    guard typeRef != 0, let name = swift_reflection_copyNameForTypeRef(context, typeRef, false) else {
      return ""
    }
    defer { free(name) }
    return String(cString: name)
  }

  private func isCollection(_ typeRef: RMTypeRef) -> Bool {
    let name = name(of: typeRef)
    return name.hasPrefix("Swift.Array<") || name.hasPrefix("Swift.ContiguousArray<")
      || name.hasPrefix("Swift.Dictionary<") || name.hasPrefix("Swift.Set<")
  }

  /// The unqualified name of the type whose metadata is at `metadata`.
  func typeName(of metadata: UInt) -> String {
    guard let pointer = UnsafeRawPointer(bitPattern: metadata) else { return "heap object" }
    let type = unsafeBitCast(pointer, to: Any.Type.self)
    return _typeName(type, qualified: false)
  }

  private func storageLayout(typeRef: RMTypeRef, typeName: String) -> HeapLayout? {
    let name = name(of: typeRef)
    guard name.hasPrefix("Swift.") else { return nil }
    func argument(_ index: UInt32) -> (ValueSlots, Int) {
      let argument = swift_reflection_genericArgumentOfTypeRef(typeRef, index)
      guard argument != 0 else { return (ValueSlots(slots: [], hasOpaqueParts: true), 0) }
      let info = swift_reflection_infoForTypeRef(context, argument)
      return (slots(ofType: argument), Int(info.stride))
    }
    func storage(_ shape: HeapLayout.Shape, _ kind: String) -> HeapLayout {
      HeapLayout(
        kind: .collectionStorage, typeName: "\(kind) storage", size: 0, shape: shape,
        scansConservatively: false)
    }
    if name.hasPrefix("Swift._ContiguousArrayStorage<") {
      let (element, stride) = argument(0)
      return storage(.arrayStorage(element: element, stride: stride), "Array")
    }
    if name.hasPrefix("Swift._DictionaryStorage<") {
      let (key, keyStride) = argument(0)
      let (value, valueStride) = argument(1)
      return storage(
        .dictionaryStorage(key: key, keyStride: keyStride, value: value, valueStride: valueStride),
        "Dictionary")
    }
    if name.hasPrefix("Swift._SetStorage<") {
      let (element, stride) = argument(0)
      return storage(.setStorage(element: element, stride: stride), "Set")
    }
    if name.hasPrefix("Swift.__Empty") || name.hasPrefix("Swift.__RawDictionaryStorage")
      || name.hasPrefix("Swift.__RawSetStorage")
    {
      return storage(.empty, "empty")
    }
    return nil
  }
}
