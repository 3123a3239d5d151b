import CRemoteMirror

extension SwiftTypes {
  /// The references of a field, capture or payload `child`, whose bytes span
  /// `size` (where the next begins): all of them are opaque when the library
  /// cannot lay the child out.
  package func slotsOfChild(_ child: RMChildInfo, size: Int) -> ValueSlots {
    if let strength = Self.strength(of: child.kind) {
      return ValueSlots(slots: [.reference(offset: 0, strength: strength, label: "")])
    }
    if child.kind == RMLayoutUnknown { return .opaque(size: size) }
    guard child.typeRef != 0 else { return .none }
    return slots(ofType: child.typeRef)
  }

  /// How a reference of layout kind `kind` holds its target, or nil when the
  /// kind is not a reference.
  package static func strength(of kind: RMLayoutKind) -> SlotStrength? {
    switch kind {
    case RMLayoutStrongReference: .strong
    case RMLayoutWeakReference: .weak
    case RMLayoutUnownedReference: .unowned
    case RMLayoutUnmanagedReference: .unmanaged
    default: nil
    }
  }

  /// The references inside a value of type `typeRef`, relative to its start.
  package func slots(ofType typeRef: RMTypeRef, depth: Int = 0) -> ValueSlots {
    if let cached = valueSlots[typeRef] { return cached }
    let computed = computeSlots(ofType: typeRef, depth: depth)
    valueSlots[typeRef] = computed
    return computed
  }

  private func computeSlots(ofType typeRef: RMTypeRef, depth: Int) -> ValueSlots {
    let info = swift_reflection_infoForTypeRef(context, typeRef)
    guard depth < 24 else { return .opaque(size: Int(info.size)) }
    if let strength = Self.strength(of: info.kind) {
      return ValueSlots(slots: [.reference(offset: 0, strength: strength, label: "")])
    }
    switch info.kind {
    case RMLayoutBuiltin:
      // The library lays the runtime's own object references out as plain
      // builtins: a `String`'s storage (`Builtin.BridgeObject`), a native or
      // unknown object. They are strong references.
      return Self.builtinReferences.contains(name(of: typeRef))
        ? ValueSlots(slots: [.reference(offset: 0, strength: .strong, label: "")]) : .none
    case RMLayoutRawPointer:
      return ValueSlots(slots: [.rawPointer(offset: 0, label: "")])
    case RMLayoutThickFunction:
      return ValueSlots(slots: [.function(offset: 0, label: "")])
    case RMLayoutStruct:
      if isCollection(typeRef) { return ValueSlots(slots: [.collection(offset: 0, label: "")]) }
      // The standard library's own structs (`String`, `UnsafeMutablePointer`)
      // keep their private storage unnamed: `name`, not `name._guts._object._object`.
      return childSlots(
        of: typeRef, info: info, depth: depth, labelled: !name(of: typeRef).hasPrefix("Swift."))
    case RMLayoutTuple:
      return childSlots(of: typeRef, info: info, depth: depth, labelled: true)
    case RMLayoutClassExistential:
      return childSlots(of: typeRef, info: info, depth: depth, labelled: false)
    case RMLayoutSinglePayloadEnum:
      let payload = swift_reflection_childOfTypeRef(context, typeRef, 0)
      let inner = slotsOfChild(payload, size: Int(info.size))
      if inner.slots.isEmpty && !inner.hasOpaqueParts { return inner }
      // A payload with one reference (a class, a closure, a collection, a
      // `String`'s storage) keeps `nil` in that reference's extra
      // inhabitants: values below the first page, which are no block. Read
      // as the payload, with no projection per instance.
      if inner.slots.count == 1, !inner.hasOpaqueParts, !isDynamic(inner.slots[0]) {
        return inner
      }
      return ValueSlots(slots: [.dynamic(offset: 0, typeRef: typeRef, isEnum: true, label: "")])
    case RMLayoutMultiPayloadEnum:
      for index in 0..<info.fieldCount {
        let payload = swift_reflection_childOfTypeRef(context, typeRef, index)
        let inner = slotsOfChild(payload, size: Int(info.size))
        if !inner.slots.isEmpty || inner.hasOpaqueParts {
          return ValueSlots(slots: [.dynamic(offset: 0, typeRef: typeRef, isEnum: true, label: "")])
        }
      }
      return .none
    case RMLayoutOpaqueExistential:
      return ValueSlots(slots: [.dynamic(offset: 0, typeRef: typeRef, isEnum: false, label: "")])
    case RMLayoutErrorExistential:
      return ValueSlots(slots: [.reference(offset: 0, strength: .strong, label: "")])
    case RMLayoutUnknown:
      return .opaque(size: Int(info.size))
    default:
      return .none
    }
  }

  /// Builtin types that are strong references to heap objects.
  static let builtinReferences: Set<String> = [
    "Builtin.BridgeObject", "Builtin.NativeObject", "Builtin.UnknownObject",
  ]

  private func isDynamic(_ slot: Slot) -> Bool {
    if case .dynamic = slot { return true }
    return false
  }

  private func childSlots(of typeRef: RMTypeRef, info: RMTypeInfo, depth: Int, labelled: Bool) -> ValueSlots {
    var children: [(offset: Int, child: RMChildInfo)] = []
    for index in 0..<info.fieldCount {
      let child = swift_reflection_childOfTypeRef(context, typeRef, index)
      children.append((Int(child.offset), child))
    }
    let starts = children.map(\.offset).sorted()
    var result = ValueSlots.none
    for (index, entry) in children.enumerated() {
      var label = ""
      if labelled {
        let name = entry.child.name.map { TypeNames.fieldLabel(String(cString: $0)) } ?? ""
        label = name.isEmpty ? "\(index)" : name
      }
      let next = starts.first { $0 > entry.offset } ?? Int(info.size)
      let inner: ValueSlots
      if let strength = Self.strength(of: entry.child.kind) {
        inner = ValueSlots(slots: [.reference(offset: 0, strength: strength, label: "")])
      } else if entry.child.kind == RMLayoutUnknown {
        inner = .opaque(size: max(0, next - entry.offset))
      } else if entry.child.typeRef == 0 {
        inner = .none
      } else {
        inner = slots(ofType: entry.child.typeRef, depth: depth + 1)
      }
      result.append(inner.nested(at: entry.offset, under: label))
    }
    return result
  }

  private func isCollection(_ typeRef: RMTypeRef) -> Bool {
    let name = name(of: typeRef)
    return name.hasPrefix("Swift.Array<") || name.hasPrefix("Swift.ContiguousArray<")
      || name.hasPrefix("Swift.Dictionary<") || name.hasPrefix("Swift.Set<")
  }

  // MARK: Native storages

  /// The layout of a native collection's or string's storage class, or nil
  /// when `typeRef` is not one.
  func storageLayout(typeRef: RMTypeRef) -> HeapLayout? {
    let name = name(of: typeRef)
    guard name.hasPrefix("Swift.") else { return nil }
    func argument(_ index: UInt32) -> (slots: ValueSlots, stride: Int, name: String) {
      let argument = swift_reflection_genericArgumentOfTypeRef(typeRef, index)
      guard argument != 0 else { return (ValueSlots(slots: [], opaqueRanges: [0..<8]), 8, "?") }
      let info = swift_reflection_infoForTypeRef(context, argument)
      return (slots(ofType: argument), Int(info.stride), TypeNames.simple(self.name(of: argument)))
    }
    func storage(_ kind: BlockKind, _ shape: HeapLayout.Shape, _ censusName: String) -> HeapLayout {
      var layout = HeapLayout(
        kind: kind, typeName: Self.storageName(kind), qualifiedName: name, size: 0, shape: shape)
      layout.censusName = censusName
      return layout
    }
    if name.hasPrefix("Swift._ContiguousArrayStorage<") {
      let element = argument(0)
      return storage(
        .arrayStorage, .arrayStorage(element: element.slots, stride: element.stride),
        "Array<\(element.name)> storage")
    }
    if name.hasPrefix("Swift._DictionaryStorage<") {
      let key = argument(0)
      let value = argument(1)
      return storage(
        .dictionaryStorage,
        .dictionaryStorage(
          key: key.slots, keyStride: key.stride, value: value.slots, valueStride: value.stride),
        "Dictionary<\(key.name), \(value.name)> storage")
    }
    if name.hasPrefix("Swift._SetStorage<") {
      let element = argument(0)
      return storage(
        .setStorage, .setStorage(element: element.slots, stride: element.stride),
        "Set<\(element.name)> storage")
    }
    if name == "Swift.__StringStorage" || name == "Swift.__SharedStringStorage" {
      return storage(.stringStorage, .stringStorage, "String storage")
    }
    if name.hasPrefix("Swift.__Empty") || name.hasPrefix("Swift.__RawDictionaryStorage")
      || name.hasPrefix("Swift.__RawSetStorage")
    {
      return storage(.arrayStorage, .empty, "empty storage")
    }
    return nil
  }

  /// What a path calls a storage: `Array storage`, `Dictionary storage`.
  static func storageName(_ kind: BlockKind) -> String {
    switch kind {
    case .dictionaryStorage: "Dictionary storage"
    case .setStorage: "Set storage"
    case .stringStorage: "String storage"
    default: "Array storage"
    }
  }
}
