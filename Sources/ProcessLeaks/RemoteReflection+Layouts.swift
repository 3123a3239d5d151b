import CRemoteMirror
import RetainGraph

extension RemoteReflection {
  /// The layout of the Swift heap object at `instance` whose first word is
  /// `metadata`, or nil when the block is not one the library knows.
  ///
  /// Cached by metadata, except for closure contexts whose captures depend on
  /// the instance (generic closures: one metadata for every binding).
  func layout(metadata: UInt, instance: UInt) -> BlockLayout? {
    if let cached = layouts[metadata] { return cached }
    guard Self.isPlausibleAddress(metadata), let kind = memory.word(at: metadata) else { return nil }
    let computed: BlockLayout?
    var cacheable = true
    switch kind {
    case Self.classMetadataKind:
      computed = classLayout(metadata: metadata)
    case Self.closureContextKind:
      computed = closureLayout(instance: instance)
      cacheable = capturesHaveFixedLayout(contextMetadata: metadata)
    case 0x500, 0x501:  // generic box, error box
      computed = BlockLayout(kind: .box, qualifiedName: "box", size: 0, slots: [])
    default:
      computed = nil
    }
    if cacheable { layouts[metadata] = computed }
    return computed
  }

  static let classMetadataKind: UInt = 0
  static let closureContextKind: UInt = 0x400

  static func isPlausibleAddress(_ address: UInt) -> Bool {
    address >= 0x1_0000 && address < 0x0000_8000_0000_0000 && address & 7 == 0
  }

  // MARK: Classes

  private func classLayout(metadata: UInt) -> BlockLayout? {
    // A class has a 4-byte-aligned type descriptor of kind "class" after its header.
    guard let descriptor = memory.word(at: metadata + 40), descriptor & 3 == 0,
      Self.isPlausibleAddress(descriptor & ~7), let flags = memory.uint32(at: descriptor), flags & 0x1F == 16
    else { return nil }
    let info = swift_reflection_infoForMetadata(context, metadata)
    let typeRef = swift_reflection_typeRefForMetadata(context, metadata)
    guard typeRef != 0 else { return nil }
    let name = qualifiedName(of: typeRef)
    guard !name.isEmpty else { return nil }
    if let storage = storageLayout(typeRef: typeRef, name: name) { return storage }
    var slots: [FieldSlot] = []
    if info.kind == RMLayoutClassInstance {
      var current = metadata
      var depth = 0
      while current != 0, depth < 64 {
        let currentInfo = swift_reflection_infoForMetadata(context, current)
        if currentInfo.kind == RMLayoutClassInstance,
          let offsets = fieldOffsets(ofClass: current, fieldCount: currentInfo.fieldCount)
        {
          for (index, offset) in offsets.enumerated() {
            let child = swift_reflection_childOfMetadata(context, current, UInt32(index))
            let label = child.name.map { String(cString: $0) } ?? "\(index)"
            slots += self.slots(of: child, depth: 0).map { $0.nested(at: offset, under: label) }
          }
        }
        current = memory.word(at: current + 8) ?? 0
        depth += 1
      }
    }
    slots.sort { $0.offset < $1.offset }
    return BlockLayout(
      kind: .object, qualifiedName: name, size: instanceSize(ofClass: metadata) ?? 0, slots: slots)
  }

  /// The instance size the runtime allocates for a class (32 bits at offset 24).
  private func instanceSize(ofClass metadata: UInt) -> Int? {
    guard let size = memory.uint32(at: metadata + 24), size >= 16, size <= 1 << 20 else { return nil }
    return Int(size)
  }

  /// The offsets of a class's own stored properties, from the field offset
  /// vector in its metadata (Remote Mirror's own class offsets are wrong for
  /// classes three or more levels deep; see RetainGraph's
  /// `ReflectionSession.fieldOffsets(ofClass:fieldCount:)`).
  private func fieldOffsets(ofClass metadata: UInt, fieldCount: UInt32) -> [Int]? {
    guard fieldCount > 0 else { return [] }
    guard let size = instanceSize(ofClass: metadata), let descriptor = memory.word(at: metadata + 40),
      descriptor & 3 == 0, Self.isPlausibleAddress(descriptor & ~7),
      let flags = memory.uint32(at: descriptor), let fields = memory.word(at: descriptor + 36)
    else { return nil }
    let kindFlags = flags >> 16
    let vectorOffset = UInt(fields >> 32)
    guard flags & 0x1F == 16, fields & 0xFFFF_FFFF == UInt(fieldCount), vectorOffset != 0,
      kindFlags & (1 << 12) == 0  // immediate members are not negative
    else { return nil }
    var vector = metadata + vectorOffset * 8
    if kindFlags & (1 << 13) != 0 {
      // A resilient superclass: the offset counts from the end of its metadata.
      guard let relative = memory.uint32(at: descriptor + 24).map({ Int32(bitPattern: $0) }),
        let members = memory.word(at: UInt(bitPattern: Int(bitPattern: descriptor + 24) + Int(relative))),
        members & 7 == 0, members < 1 << 20
      else { return nil }
      vector += members
    }
    var offsets: [Int] = []
    for index in 0..<UInt(fieldCount) {
      guard let offset = memory.word(at: vector + index * 8), offset >= 16, offset <= UInt(size) else {
        return nil
      }
      offsets.append(Int(offset))
    }
    return offsets
  }

  /// Array, Dictionary and Set storage, laid out by their element types.
  private func storageLayout(typeRef: UInt64, name: String) -> BlockLayout? {
    if name.hasPrefix("Swift._ContiguousArrayStorage<") {
      let argument = swift_reflection_genericArgumentOfTypeRef(typeRef, 0)
      let stride = argument == 0 ? 0 : Int(swift_reflection_infoForTypeRef(context, argument).stride)
      let element = argument == 0 ? [] : slots(ofType: argument, depth: 0)
      return BlockLayout(
        kind: .arrayStorage(stride: stride, element: element), qualifiedName: name, size: 0, slots: [])
    }
    if name.hasPrefix("Swift._DictionaryStorage<") || name.hasPrefix("Swift._SetStorage<") {
      return BlockLayout(kind: .hashedStorage, qualifiedName: name, size: 0, slots: [])
    }
    return nil
  }

  // MARK: Closure contexts

  private func closureLayout(instance: UInt) -> BlockLayout? {
    let info = swift_reflection_infoForInstance(context, instance)
    guard info.kind == RMLayoutClosureContext else {
      return BlockLayout(kind: .closureContext, qualifiedName: "closure context", size: 0, slots: [])
    }
    var slots: [FieldSlot] = []
    for index in 0..<info.fieldCount {
      let child = swift_reflection_childOfInstance(context, instance, index)
      let label = info.fieldCount == 1 ? "captures" : "captures[\(index)]"
      slots += self.slots(of: child, depth: 0).map { $0.nested(at: Int(child.offset), under: label) }
    }
    slots.sort { $0.offset < $1.offset }
    return BlockLayout(
      kind: .closureContext, qualifiedName: "closure context", size: Int(info.size), slots: slots)
  }

  /// Whether every context with this metadata lays its captures out the same
  /// way (false for a generic closure; see RetainGraph's
  /// `capturesHaveFixedLayout(contextMetadata:)`).
  private func capturesHaveFixedLayout(contextMetadata metadata: UInt) -> Bool {
    guard let descriptor = memory.word(at: metadata + 16) else { return false }
    if descriptor == 0 { return true }
    guard let counts = memory.word(at: descriptor), let bindings = memory.word(at: descriptor + 8) else {
      return false
    }
    return counts >> 32 == 0 && bindings & 0xFFFF_FFFF == 0
  }

  // MARK: Values

  private func slots(of child: RMChildInfo, depth: Int) -> [FieldSlot] {
    if let strength = Self.strength(of: child.kind) {
      return [FieldSlot(offset: 0, size: 8, label: "", role: .reference(strength))]
    }
    guard child.typeRef != 0 else { return [FieldSlot(offset: 0, size: 8, label: "", role: .data)] }
    return slots(ofType: child.typeRef, depth: depth)
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

  /// The slots of a value of type `typeRef`, relative to its start: its
  /// references and closures where the metadata tells them exactly, data
  /// elsewhere.
  func slots(ofType typeRef: UInt64, depth: Int) -> [FieldSlot] {
    if let cached = valueSlots[typeRef] { return cached }
    let computed = computeSlots(ofType: typeRef, depth: depth)
    valueSlots[typeRef] = computed
    return computed
  }

  private func computeSlots(ofType typeRef: UInt64, depth: Int) -> [FieldSlot] {
    let info = swift_reflection_infoForTypeRef(context, typeRef)
    let whole = [FieldSlot(offset: 0, size: max(Int(info.size), 8), label: "", role: .data)]
    guard depth < 24 else { return whole }
    if let strength = Self.strength(of: info.kind) {
      return [FieldSlot(offset: 0, size: 8, label: "", role: .reference(strength))]
    }
    switch info.kind {
    case RMLayoutThickFunction:
      return [FieldSlot(offset: 0, size: 16, label: "", role: .function)]
    case RMLayoutStruct:
      let name = qualifiedName(of: typeRef)
      if name.hasPrefix("Swift.Array<") || name.hasPrefix("Swift.ContiguousArray<")
        || name.hasPrefix("Swift.Dictionary<") || name.hasPrefix("Swift.Set<")
      {
        return [FieldSlot(offset: 0, size: 8, label: "", role: .reference(.strong))]
      }
      return children(of: typeRef, info: info, depth: depth, labelled: true, whole: whole)
    case RMLayoutTuple:
      return children(of: typeRef, info: info, depth: depth, labelled: true, whole: whole)
    case RMLayoutClassExistential:
      return children(of: typeRef, info: info, depth: depth, labelled: false, whole: whole)
    case RMLayoutSinglePayloadEnum:
      // Optional of one reference or closure: nil is 0, so the payload's slot stands.
      let payload = swift_reflection_childOfTypeRef(context, typeRef, 0)
      let inner = slots(of: payload, depth: depth + 1)
      if inner.count == 1, inner[0].offset == 0, inner[0].role != .data { return inner }
      return whole
    case RMLayoutErrorExistential:
      return [FieldSlot(offset: 0, size: 8, label: "", role: .reference(.strong))]
    default:
      return whole
    }
  }

  private func children(
    of typeRef: UInt64, info: RMTypeInfo, depth: Int, labelled: Bool, whole: [FieldSlot]
  ) -> [FieldSlot] {
    var result: [FieldSlot] = []
    for index in 0..<info.fieldCount {
      let child = swift_reflection_childOfTypeRef(context, typeRef, index)
      var label = ""
      if labelled {
        let name = child.name.map { String(cString: $0) } ?? ""
        label = name.isEmpty ? "\(index)" : name
      }
      result += slots(of: child, depth: depth + 1).map { $0.nested(at: Int(child.offset), under: label) }
    }
    return result.isEmpty ? whole : result.sorted { $0.offset < $1.offset }
  }
}
