import CRemoteMirror

extension SwiftTypes {
  /// The layout for objects with `metadata`, computed once (from `instance`
  /// only for closure contexts, whose captures the library reads from the
  /// instance).
  ///
  /// The cache is keyed by metadata address, so only what belongs to the
  /// metadata may enter it. Metadata are never freed, but generic metadata
  /// live in heap memory the runtime may take over later: an address that is
  /// not metadata yet is neither cached nor shown to the library, whose own
  /// caches are keyed by address too. An instance may die and its memory be
  /// reused while it is inspected: layouts computed from an instance are
  /// cached only when the instance still has `metadata` afterwards. A generic
  /// closure's context has one metadata for every binding of its generic
  /// parameters, but its captures are laid out for the binding the instance
  /// stores: such layouts are computed for each instance and never cached.
  package func layout(metadata: UInt, instance: UInt) -> HeapLayout? {
    if let cached = layouts[metadata] { return cached }
    guard let kind = heapMetadataKind(metadata) else { return nil }
    let computed: HeapLayout?
    switch kind {
    case UInt(SOLKindClass):
      computed = classLayout(metadata: metadata)
    case UInt(SOLKindTask):
      // Per instance: a finished future holds its result.
      return taskLayout(instance: instance)
    case UInt(SOLKindHeapGenericLocalVariable):
      computed = genericBoxLayout(metadata: metadata)
    case UInt(SOLKindErrorObject):
      computed = HeapLayout(
        kind: .box, typeName: "error box", size: 0, shape: .fields([]), hasOpaqueTail: true)
    default:
      computed = contextLayout(metadata: metadata, instance: instance)
      guard word(at: instance) == metadata else { return nil }
      if !capturesHaveFixedLayout(contextMetadata: metadata) { return computed }
    }
    if layouts.count > 200_000 { layouts.removeAll(keepingCapacity: true) }
    layouts[metadata] = computed
    return computed
  }

  /// Whether every context with this metadata lays its captures out the same
  /// way: false for a generic closure, whose context carries the metadata of
  /// its generic arguments ("bindings", or "metadata sources" among its
  /// captures) and whose capture offsets depend on them.
  ///
  /// The context metadata holds, after its kind, the offset to the first
  /// capture (32 bits) and at +16 a pointer to its capture descriptor, which
  /// begins with three 32-bit counts: capture types, metadata sources,
  /// bindings. Unreadable means not fixed.
  package func capturesHaveFixedLayout(contextMetadata metadata: UInt) -> Bool {
    guard let descriptor = word(at: metadata + UInt(SOLHeapLocalCaptureDescriptorOffset)) else {
      return false
    }
    if descriptor == 0 { return true }  // no captures described: nothing to lay out
    guard let counts = word(at: descriptor), let bindings = word(at: descriptor + 8) else { return false }
    let metadataSources = counts >> 32
    return metadataSources == 0 && bindings & 0xFFFF_FFFF == 0
  }

  /// The kind of the heap metadata at `metadata` (a class, a closure
  /// context, a box, a task), or nil when the memory there does not look
  /// like heap metadata.
  package func heapMetadataKind(_ metadata: UInt) -> UInt? {
    guard Self.isPlausibleObject(metadata), let kind = word(at: metadata) else { return nil }
    switch kind {
    case UInt(SOLKindClass):
      // A class has a class context descriptor (4-byte aligned, in an image)
      // after its fixed-size header.
      guard let descriptor = word(at: metadata + UInt(SOLClassDescriptionOffset)), descriptor & 3 == 0,
        Self.isPlausibleObject(descriptor & ~7), let flags = uint32(at: descriptor),
        flags & 0x1F == UInt32(SOLContextDescriptorKindClass)
      else { return nil }
      return kind
    case UInt(SOLKindHeapLocalVariable), UInt(SOLKindHeapGenericLocalVariable), UInt(SOLKindErrorObject),
      UInt(SOLKindTask):
      return kind
    default:
      return nil
    }
  }

  // MARK: Classes

  private func classLayout(metadata: UInt) -> HeapLayout? {
    let info = swift_reflection_infoForMetadata(context, metadata)
    let typeRef = swift_reflection_typeRefForMetadata(context, metadata)
    let (typeName, qualified) = names(ofClass: metadata)
    if let storage = storageLayout(typeRef: typeRef) { return storage }
    let size = instanceSize(ofClass: metadata) ?? 0
    if qualified == "Swift.CheckedContinuationCanary", size == 16 {
      return Self.checkedContinuationCanary(typeName: typeName, qualifiedName: qualified)
    }
    guard info.kind == RMLayoutClassInstance else {
      // No layout the library can compute (a `Mutex` or `Atomic` field, a
      // module without reflection metadata): every field is opaque.
      guard typeRef != 0 else { return nil }
      return HeapLayout(
        kind: .object, typeName: typeName, qualifiedName: qualified, size: size, shape: .fields([]),
        opaqueRanges: size > 16 ? [16..<size] : [], hasOpaqueTail: size == 0)
    }
    var found = ValueSlots.none
    var current = metadata
    var currentInfo = info
    var depth = 0
    // Each class's own fields span from their first offset to where the
    // next class down (or the instance) begins; the superclass chain is
    // walked from the most derived class up.
    var fieldsEnd = size
    while current != 0, depth < 64 {
      if currentInfo.kind == RMLayoutClassInstance {
        let owner = current
        if let offsets = fieldOffsets(ofClass: owner, fieldCount: currentInfo.fieldCount) {
          found.append(
            fields(at: offsets, end: fieldsEnd) { swift_reflection_childOfMetadata(context, owner, $0) })
          if let first = offsets.min() { fieldsEnd = first }
        } else if let start = ancestorEnd(of: owner), start < fieldsEnd {
          found.opaqueRanges.append(start..<fieldsEnd)
          fieldsEnd = start
        }
      } else if swift_reflection_typeRefForMetadata(context, current) != 0, fieldsEnd > 16 {
        found.opaqueRanges.append(16..<fieldsEnd)
        fieldsEnd = 16
      }
      current = word(at: current + UInt(SOLClassSuperclassOffset)) ?? 0
      depth += 1
      if current != 0 { currentInfo = swift_reflection_infoForMetadata(context, current) }
    }
    let bridgesCoreFoundation = Self.isCoreFoundationBridge(typeName)
    let tail = tailAllocation(metadata)
    var layout = HeapLayout(
      kind: .object, typeName: typeName, qualifiedName: qualified, size: size,
      shape: .fields(found.slots.sorted { $0.offset < $1.offset }), opaqueRanges: found.opaqueRanges,
      hasOpaqueTail: bridgesCoreFoundation || tail != nil)
    layout.isKeyPath = tail == "AnyKeyPath"
    layout.hasLockTail = Self.hasLockTail(qualified)
    return layout
  }

  /// A `CheckedContinuation`'s canary: a class with no fields that the
  /// standard library allocates with a tail of `(UnsafeRawPointer?, String)`
  /// — the suspended task it resumes (nil once resumed), then the name of
  /// the function that made it. The task is held through it: a task that
  /// waits on a continuation some reachable object keeps is not a leak.
  private static func checkedContinuationCanary(typeName: String, qualifiedName: String?) -> HeapLayout {
    HeapLayout(
      kind: .object, typeName: typeName, qualifiedName: qualifiedName, size: 40,
      shape: .fields([.rawPointer(offset: 16, label: "continuation")]), opaqueRanges: [24..<40])
  }

  /// Where the instance of `metadata`'s superclass ends (the class's own
  /// fields start there), from the superclass's instance size.
  private func ancestorEnd(of metadata: UInt) -> Int? {
    guard let superclass = word(at: metadata + UInt(SOLClassSuperclassOffset)) else { return nil }
    if superclass == 0 { return 16 }
    return instanceSize(ofClass: superclass)
  }

  /// The instance size the runtime allocates for a class (32 bits in its
  /// metadata), or nil when it is not a plausible object size.
  package func instanceSize(ofClass metadata: UInt) -> Int? {
    guard let size = uint32(at: metadata + UInt(SOLClassInstanceSizeOffset)), size >= 16, size <= 1 << 20
    else { return nil }
    return Int(size)
  }

  /// Foundation's Swift classes behind CoreFoundation objects on Linux
  /// (`__NSCFType`, `_NSCFArray`, `_NSCFDictionary`, …), whose memory past
  /// the Swift fields is CoreFoundation's.
  package static func isCoreFoundationBridge(_ typeName: String) -> Bool {
    typeName.hasPrefix("__NSCF") || typeName.hasPrefix("_NSCF")
  }

  /// The ancestor (itself included) that makes a class allocate elements
  /// after its fields — `ManagedBuffer`, or `AnyKeyPath`, whose instances
  /// carry their components — or nil: a tail no field describes.
  private func tailAllocation(_ metadata: UInt) -> String? {
    var current = metadata
    for _ in 0..<32 where current != 0 {
      if let name = descriptorName(ofClass: current), name == "ManagedBuffer" || name == "AnyKeyPath" {
        return name
      }
      current = word(at: current + UInt(SOLClassSuperclassOffset)) ?? 0
    }
    return nil
  }

  /// Whether the concurrency library allocates instances of the class with
  /// the words of a lock after their fields (`AsyncStream`'s and
  /// `AsyncThrowingStream`'s storage, `_AsyncStreamCriticalStorage`): their
  /// blocks are larger than the class; the fields are read exactly all the
  /// same, the lock holds no reference.
  static func hasLockTail(_ qualified: String?) -> Bool {
    guard let qualified else { return false }
    let isStreamStorage =
      (qualified.hasPrefix("Swift.AsyncStream<") || qualified.hasPrefix("Swift.AsyncThrowingStream<"))
      && (qualified.hasSuffix("._Storage") || qualified.hasSuffix("._Storage<>"))
    return isStreamStorage || qualified.hasPrefix("Swift._AsyncStreamCriticalStorage<")
  }

  /// The name in a class's context descriptor (a relative pointer at offset 8).
  package func descriptorName(ofClass metadata: UInt) -> String? {
    guard let descriptor = word(at: metadata + UInt(SOLClassDescriptionOffset)), descriptor & 3 == 0,
      let relative = uint32(at: descriptor + UInt(SOLContextDescriptorNameOffset))
    else { return nil }
    let address = UInt(
      bitPattern: Int(bitPattern: descriptor + UInt(SOLContextDescriptorNameOffset))
        + Int(Int32(bitPattern: relative)))
    var bytes = [UInt8](repeating: 0, count: 128)
    let copied = bytes.withUnsafeMutableBytes { read(address, into: $0.baseAddress!, count: 128) }
    guard copied > 0, let end = bytes.prefix(copied).firstIndex(of: 0) else { return nil }
    return String(decoding: bytes[..<end], as: UTF8.self)
  }

  /// The offsets of the stored properties a class declares itself, in field
  /// descriptor order, read from the field offset vector in its metadata.
  ///
  /// Remote Mirror's own offsets cannot be trusted for classes: without
  /// Objective-C interop it finds where a class's fields begin by adding up
  /// the instance size of *every* ancestor, counting the fields of the
  /// grandparent and above more than once. In a class three or more levels
  /// deep whose ancestors have fields, its offsets point past the real field.
  /// The field offset vector holds the numbers the runtime and compiled code use.
  ///
  /// Returns nil when the metadata does not describe exactly `fieldCount`
  /// fields or its offsets do not fit in the instance.
  package func fieldOffsets(ofClass metadata: UInt, fieldCount: UInt32) -> [Int]? {
    guard fieldCount > 0 else { return [] }
    guard let size = instanceSize(ofClass: metadata),
      let descriptor = word(at: metadata + UInt(SOLClassDescriptionOffset)),
      descriptor & 3 == 0, Self.isPlausibleObject(descriptor & ~7)
    else { return nil }
    // Class context descriptor: flags at 0, then at 36 the number of fields
    // and the field offset vector's offset in the metadata (in words), 32 bits each.
    guard let flagsWord = word(at: descriptor), let fieldsWord = word(at: descriptor + 36) else { return nil }
    let flags = UInt32(truncatingIfNeeded: flagsWord)
    let kindFlags = flags >> 16
    let vectorOffset = UInt(fieldsWord >> 32)
    guard flags & 0x1F == UInt32(SOLContextDescriptorKindClass), fieldsWord & 0xFFFF_FFFF == UInt(fieldCount),
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

  /// Type context descriptor flags (the kind-specific half of the flags).
  private static let immediateMembersAreNegative: UInt32 = 1 << 12
  private static let hasResilientSuperclass: UInt32 = 1 << 13

  /// The slots of fields at `offsets` (their children from `child`), each
  /// field's bytes ending where the next begins (the last at `end`): the
  /// extent of a field whose layout is unknown.
  func fields(at offsets: [Int], end: Int, child: (UInt32) -> RMChildInfo) -> ValueSlots {
    let sortedStarts = offsets.sorted()
    var result = ValueSlots.none
    for (index, offset) in offsets.enumerated() {
      let field = child(UInt32(index))
      let name = field.name.map { TypeNames.fieldLabel(String(cString: $0)) } ?? "\(index)"
      let next = sortedStarts.first { $0 > offset } ?? end
      result.append(slotsOfChild(field, size: max(0, next - offset)).nested(at: offset, under: name))
    }
    return result
  }

  // MARK: Closure contexts and boxes

  private func contextLayout(metadata: UInt, instance: UInt) -> HeapLayout? {
    let info = swift_reflection_infoForInstance(context, UInt(instance))
    switch info.kind {
    case RMLayoutClassInstance:
      return classLayout(metadata: metadata)
    case RMLayoutClosureContext:
      var children: [(offset: Int, child: RMChildInfo)] = []
      for index in 0..<info.fieldCount {
        let child = swift_reflection_childOfInstance(context, UInt(instance), index)
        children.append((Int(child.offset), child))
      }
      var found = ValueSlots.none
      let starts = children.map(\.offset).sorted()
      for (index, entry) in children.enumerated() {
        let label = children.count == 1 ? "captures" : "captures[\(index)]"
        let next = starts.first { $0 > entry.offset } ?? Int(info.size)
        found.append(
          slotsOfChild(entry.child, size: max(0, next - entry.offset)).nested(at: entry.offset, under: label))
      }
      var layout = HeapLayout(
        kind: .closureContext, typeName: "closure", size: Int(info.size), shape: .fields(found.slots),
        opaqueRanges: found.opaqueRanges)
      layout.censusName = Self.contextCensusName(
        captures: children.map { $0.child.typeRef == 0 ? "?" : TypeNames.simple(name(of: $0.child.typeRef)) })
      return layout
    default:
      // A context whose captures the library cannot describe: read it all conservatively.
      return HeapLayout(
        kind: .closureContext, typeName: "closure", size: 0, shape: .fields([]), hasOpaqueTail: true)
    }
  }

  /// What a census calls a closure context: `closure context (captures
  /// FeedService, Int)`, the first three captures' types.
  static func contextCensusName(captures: [String]) -> String {
    guard !captures.isEmpty else { return "closure context" }
    let shown = captures.prefix(3).joined(separator: ", ")
    return "closure context (captures \(shown)\(captures.count > 3 ? ", +\(captures.count - 3) more" : ""))"
  }

  /// A task: its words are the runtime's bookkeeping (its closure's context
  /// and its frames are found among them), except a finished future's
  /// result or error, which the task holds until it is read — a task
  /// group's child, a `Task`'s `value` nobody awaited yet. They are in its
  /// future fragment, after the task's fixed part
  /// (`_swift_concurrency_debug_asyncTaskSize`) and the child (two words)
  /// and group child (one word) fragments its job flags say it has (bits
  /// 24, 26; 25: a future): the wait queue, whose low bits say the status
  /// (1 a result, 2 an error), the result's metadata, the error, then the
  /// result at its type's alignment (swift/ABI/Task.h; measured on 6.3).
  private func taskLayout(instance: UInt) -> HeapLayout {
    let plain = HeapLayout(kind: .task, typeName: "Task", size: 0, shape: .fields([]))
    guard let taskSize = asyncTaskSize, let flags = taskFlags(at: instance), flags & Self.taskIsFuture != 0
    else {
      return plain
    }
    var fragment = taskSize
    if flags & Self.taskIsChild != 0 { fragment += 16 }
    if flags & Self.taskIsGroupChild != 0 { fragment += 8 }
    guard let queue = word(at: instance + UInt(fragment)) else { return plain }
    switch queue & 3 {
    case 1:
      guard let metadata = word(at: instance + UInt(fragment + 8)), Self.isPlausibleObject(metadata) else {
        return plain
      }
      let typeRef = swift_reflection_typeRefForMetadata(context, metadata)
      guard typeRef != 0 else { return plain }
      let info = swift_reflection_infoForTypeRef(context, typeRef)
      let alignment = max(1, Int(info.alignment))
      let offset = (fragment + 24 + alignment - 1) / alignment * alignment
      let value = slots(ofType: typeRef).nested(at: offset, under: "result")
      return HeapLayout(
        kind: .task, typeName: "Task", size: offset + Int(info.size), shape: .fields(value.slots),
        opaqueRanges: value.opaqueRanges)
    case 2:
      return HeapLayout(
        kind: .task, typeName: "Task", size: fragment + 24,
        shape: .fields([.reference(offset: fragment + 16, strength: .strong, label: "error")]))
    default:
      return plain
    }
  }

  /// A generic box (a captured `var` of generic type, an indirect payload):
  /// the boxed value at the offset its metadata gives, laid out as its type.
  private func genericBoxLayout(metadata: UInt) -> HeapLayout? {
    guard let offset = uint32(at: metadata + UInt(SOLGenericBoxOffsetOffset)),
      let boxed = word(at: metadata + UInt(SOLGenericBoxTypeOffset)), Self.isPlausibleObject(boxed)
    else { return HeapLayout(kind: .box, typeName: "box", size: 0, shape: .fields([]), hasOpaqueTail: true) }
    let typeRef = swift_reflection_typeRefForMetadata(context, boxed)
    guard typeRef != 0 else {
      return HeapLayout(kind: .box, typeName: "box", size: 0, shape: .fields([]), hasOpaqueTail: true)
    }
    let size = Int(swift_reflection_infoForTypeRef(context, typeRef).size)
    let value = slots(ofType: typeRef).nested(at: Int(offset), under: "value")
    return HeapLayout(
      kind: .box, typeName: "box", size: Int(offset) + size, shape: .fields(value.slots),
      opaqueRanges: value.opaqueRanges)
  }

  /// A task's job flags (the 32 bits at +32; swift/ABI/MetadataValues.h):
  /// bit 24 a child task (a child fragment, its parent first, follows the
  /// fixed part), 25 a future, 26 a task group's child.
  package func taskFlags(at task: UInt) -> UInt32? { uint32(at: task + 32) }
  package static let taskIsChild: UInt32 = 1 << 24
  static let taskIsFuture: UInt32 = 1 << 25
  static let taskIsGroupChild: UInt32 = 1 << 26
}
