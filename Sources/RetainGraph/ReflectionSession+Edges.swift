import CRemoteMirror
import HeapModel
import MemoryView

extension ReflectionSession {
  /// Appends the outgoing references of the live object at `address`, read
  /// with the heap model's own walk of its layout (``ObjectWalk``): fields,
  /// captures, and the elements of the collections it holds (inlined under
  /// the field's label: `items[3]`).
  ///
  /// Returns the object's layout, or nil when `address` is not a heap
  /// object Remote Mirror understands (a Swift task's memory is then
  /// searched for the closure context it holds). With `strongOnly`, weak,
  /// unowned and unmanaged references are skipped.
  @discardableResult
  func edges(of address: UInt, strongOnly: Bool, into edges: inout [RawEdge]) -> HeapLayout? {
    references(of: address, prefix: "", strongOnly: strongOnly, depth: 0, into: &edges)
  }

  private func references(
    of address: UInt, prefix: String, strongOnly: Bool, depth: Int, into edges: inout [RawEdge]
  ) -> HeapLayout? {
    guard Self.isPlausibleObject(address), depth < 4 else { return nil }
    // With safe reads, one read usually covers the header and every field;
    // direct reads take the header first and then no more than the object.
    var copied = read(address, into: window, count: headerReadSize)
    guard copied >= 16 else { return nil }
    let metadata = window.load(as: UInt.self)
    guard Self.isPlausibleObject(metadata) else { return nil }
    if depth == 0 { describedMetadata = metadata }
    guard let layout = layout(metadata: metadata, instance: address) else {
      if depth == 0, types.heapMetadataKind(metadata) == UInt(SOLKindTask) {
        scanConservatively(
          address, size: taskScanSize(of: address), prefix: prefix, closuresOnly: true, into: &edges)
      }
      return nil
    }
    if layout.kind == .task {
      // A task holds what its closure captured through its context; the
      // rest of its block is the runtime's bookkeeping and storage not yet
      // written (measured: 6 of the 39 words of a 312-byte task kept stale
      // words that once closed a false, shorter cycle).
      scanConservatively(
        address, size: taskScanSize(of: address), prefix: prefix, closuresOnly: true, into: &edges)
      return layout
    }
    if case .fields = layout.shape {
    } else if copied < Self.storageHeaderSize {
      // A storage's header says how far it extends: read it whole first.
      copied = read(address, into: window, count: Self.storageHeaderSize)
    }
    let size = objectSize(layout, address: address, header: UnsafeRawPointer(window), copied: copied)
    guard size >= 16 else { return layout }
    let buffer = size <= Self.windowSize ? window : ScratchMappings.map(bytes: size)
    defer { if buffer != window { ScratchMappings.unmap(buffer, bytes: size) } }
    let read = size <= copied ? copied : self.read(address, into: buffer, count: size)
    guard read >= 16 else { return layout }
    // The walk's references are collected first: reading a collection's
    // storage reuses the window.
    var visitor = LiveVisitor(kind: layout.kind, bytes: UnsafeRawPointer(buffer))
    let walk = ObjectWalk(
      types: types, address: address, bytes: UnsafeRawPointer(buffer), size: read, layout: layout)
    // The library reads enum and existential values itself: nothing read ahead may be used after it.
    if layout.hasDynamicSlots { endPrefetch() }
    let covered = walk.walk(&visitor)
    var tailCopy: [UInt8] = []
    if layout.hasOpaqueTail, covered < read {
      tailCopy = Array(UnsafeRawBufferPointer(start: buffer + covered, count: read - covered))
    }
    let opaqueCopies = visitor.opaque.map { range in
      (range, Array(UnsafeRawBufferPointer(start: buffer + range.lowerBound, count: range.count)))
    }
    let found = visitor.found
    let firstPrecise = edges.count
    for reference in found {
      let label = Slot.join(prefix, reference.label)
      switch reference.kind {
      case .strong:
        if reference.isCollection {
          _ = references(
            of: reference.word, prefix: label, strongOnly: strongOnly, depth: depth + 1, into: &edges)
          continue
        }
        guard Self.isPlausibleObject(reference.word) else { continue }
        edges.append(
          RawEdge(
            label: label, target: reference.word, strength: .strong, isConservative: false,
            function: reference.function))
      case .weak:
        guard !strongOnly, Self.isPlausibleObject(reference.word) else { continue }
        // The weak reference is followed through safe reads only: loading
        // it with the runtime would trust memory another thread may free.
        endPrefetch()
        let target = rm_weakTarget(address + UInt(reference.offset))
        guard Self.isPlausibleObject(target) else { continue }
        edges.append(
          RawEdge(label: label, target: target, strength: .weak, isConservative: false, function: 0))
      case .unowned, .unmanaged:
        guard !strongOnly, !reference.isRawPointer, Self.isPlausibleObject(reference.word) else { continue }
        edges.append(
          RawEdge(
            label: label, target: reference.word,
            strength: reference.kind == .unowned ? .unowned : .unmanaged,
            isConservative: false, function: 0))
      case .conservative, .back:
        continue
      }
    }
    let known = Set(edges[firstPrecise...].map(\.target))
    for (range, bytes) in opaqueCopies {
      bytes.withUnsafeBytes {
        scanWords(
          $0, firstWord: range.lowerBound / 8, of: address, prefix: prefix, skipping: known, into: &edges)
      }
    }
    tailCopy.withUnsafeBytes {
      scanWords(
        $0, firstWord: covered / 8, of: address, prefix: prefix, skipping: known, cost: Self.tailWordCost,
        into: &edges)
    }
    return layout
  }

  /// What following a word of an object's tail (memory past its fields no
  /// metadata describes: a `ManagedBuffer`'s elements, CoreFoundation's
  /// memory) costs a cycle search: more than a word of a field of unknown
  /// layout, whose bytes the object wrote (a tail keeps its unused capacity's
  /// stale words).
  static let tailWordCost = 5

  /// The bytes of a collection storage's header (a hashed storage's, the
  /// longer): what its extent is computed from.
  static let storageHeaderSize = 72

  /// The bytes of an object to read: a class's instance size, a closure
  /// context's size, a storage's extent from its header; an opaque tail's
  /// end from the malloc block's size where glibc's header tells it.
  private func objectSize(_ layout: HeapLayout, address: UInt, header: UnsafeRawPointer, copied: Int) -> Int {
    var size = layout.size
    switch layout.shape {
    case .fields: break
    default: size = ObjectWalk.storageExtent(layout, header: header, count: copied, address: address) ?? 0
    }
    if layout.hasOpaqueTail, let block = mallocBlockBound(of: address) { size = max(size, block) }
    return min(size, Self.maximumObjectSize)
  }

  /// The references a walk found, kept to be followed after it.
  private struct LiveVisitor: ReferenceVisitor {
    struct Found {
      var word: UInt
      var offset: Int
      var kind: EdgeKind
      var label: String
      var function: UInt
      var isCollection: Bool
      var isRawPointer: Bool
    }
    let kind: BlockKind
    let bytes: UnsafeRawPointer
    var found: [Found] = []
    var opaque: [Range<Int>] = []

    mutating func reference(
      _ word: UInt, at offset: Int, kind edgeKind: EdgeKind, slot: Slot, context: SlotContext
    ) {
      var function: UInt = 0
      var isCollection = false
      var isRawPointer = false
      switch slot {
      case .function: function = offset >= 8 ? bytes.load(fromByteOffset: offset - 8, as: UInt.self) : 0
      case .collection: isCollection = true
      case .rawPointer: isRawPointer = true
      default: break
      }
      found.append(
        Found(
          word: word, offset: offset, kind: edgeKind, label: context.label(of: slot, kind: kind),
          function: function,
          isCollection: isCollection, isRawPointer: isRawPointer))
    }

    mutating func opaque(from: Int, to: Int, context: SlotContext) {
      if to > from { opaque.append(from..<to) }
    }
  }

  /// How many bytes of a task to search: its malloc block's size when
  /// glibc's header tells it, else a fixed window (safe reads only).
  private func taskScanSize(of address: UInt) -> Int {
    guard safeReads else { return 0 }
    return min(Self.firstReadSize, mallocBlockBound(of: address) ?? Self.firstReadSize)
  }

  /// An upper bound of the usable size of the malloc block at `address`
  /// (glibc's chunk header; nil under another allocator or when the header
  /// looks wrong).
  private func mallocBlockBound(of address: UInt) -> Int? {
    ProcessSnapshot.usableSizeOfOwnBlock(at: address) { word(at: $0) }
  }

  /// Finds words of an object's first `size` bytes that hold the address of
  /// a Swift object (a closure context only, with `closuresOnly`): edges
  /// marked conservative.
  private func scanConservatively(
    _ address: UInt, size: Int, prefix: String, closuresOnly: Bool, into edges: inout [RawEdge]
  ) {
    let limit = min(size, Self.maximumObjectSize)
    guard limit > 16 else { return }
    let buffer = ScratchMappings.map(bytes: limit)
    defer { ScratchMappings.unmap(buffer, bytes: limit) }
    let copied = read(address, into: buffer, count: limit)
    guard copied > 16 else { return }
    scanWords(
      UnsafeRawBufferPointer(start: buffer + 16, count: copied - 16), firstWord: 2, of: address,
      prefix: prefix,
      skipping: [], closuresOnly: closuresOnly, into: &edges)
  }

  /// Appends an edge for each word of `bytes` (word `firstWord` of the
  /// object at `address` on) that holds the address of a Swift object.
  private func scanWords(
    _ bytes: UnsafeRawBufferPointer, firstWord: Int, of address: UInt, prefix: String,
    skipping known: Set<UInt>, closuresOnly: Bool = false, cost: Int = RawEdge.conservativeCost,
    into edges: inout [RawEdge]
  ) {
    var seen = known
    for index in 0..<bytes.count / 8 {
      let candidate = bytes.loadUnaligned(fromByteOffset: index * 8, as: UInt.self)
      guard candidate != address, candidate & 15 == 0, Self.isPlausibleObject(candidate),
        !seen.contains(candidate),
        let layout = layout(ofObjectAt: candidate), !closuresOnly || layout.kind == .closureContext
      else { continue }
      seen.insert(candidate)
      var edge = RawEdge(
        label: Slot.join(prefix, "word \(firstWord + index)"), target: candidate, strength: .strong,
        isConservative: true, function: 0)
      edge.cost = cost
      edges.append(edge)
    }
  }
}

extension HeapLayout {
  /// Whether reading the object's references asks the library to read an
  /// enum's or existential's value.
  var hasDynamicSlots: Bool {
    func dynamic(_ slots: [Slot]) -> Bool {
      slots.contains { if case .dynamic = $0 { true } else { false } }
    }
    switch shape {
    case .fields(let slots): return dynamic(slots)
    case .arrayStorage(let element, _): return dynamic(element.slots)
    case .dictionaryStorage(let key, _, let value, _): return dynamic(key.slots) || dynamic(value.slots)
    case .setStorage(let element, _): return dynamic(element.slots)
    case .stringStorage, .empty: return false
    }
  }
}

/// An outgoing reference found in a live object, before it is described for the caller.
struct RawEdge {
  var label: String
  var target: UInt
  var strength: ReferenceStrength
  var isConservative: Bool
  /// The closure's function pointer when the reference is a closure value, else 0.
  var function: UInt
  /// What following it costs a search: 1 for a reference metadata names,
  /// more for a word that only looks like one.
  var cost: Int

  init(label: String, target: UInt, strength: ReferenceStrength, isConservative: Bool, function: UInt) {
    self.label = label
    self.target = target
    self.strength = strength
    self.isConservative = isConservative
    self.function = function
    cost = isConservative ? Self.conservativeCost : 1
  }

  /// What a conservative word costs (a named reference costs 1).
  static let conservativeCost = 3
}
