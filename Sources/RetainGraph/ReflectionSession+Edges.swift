import CRemoteMirror
import MemoryView

/// A copy of part of an object's memory, read once and then indexed.
struct MemoryWindow {
  var base: UInt
  var bytes: UnsafeRawPointer?
  var count: Int

  static var none: MemoryWindow { MemoryWindow(base: 0, bytes: nil, count: 0) }

  func word(at address: UInt) -> UInt? {
    guard let bytes, address >= base, address - base + 8 <= UInt(count) else { return nil }
    return bytes.loadUnaligned(fromByteOffset: Int(address - base), as: UInt.self)
  }
}

extension ReflectionSession {
  /// Appends the outgoing references of the object at `address`.
  ///
  /// Returns the object's layout, or nil when `address` is not a heap
  /// object Remote Mirror understands (its memory is then scanned
  /// conservatively). With `strongOnly`, weak, unowned and unmanaged
  /// references are skipped.
  @discardableResult
  func edges(of address: UInt, strongOnly: Bool, into edges: inout [RawEdge]) -> HeapLayout? {
    guard Self.isPlausibleObject(address) else { return nil }
    // With safe reads, one read usually covers the header and every field;
    // direct reads take the header first and then no more than the object.
    var copied = read(address, into: window, count: headerReadSize)
    guard copied >= 16 else { return nil }
    let metadata = window.load(as: UInt.self)
    guard Self.isPlausibleObject(metadata) else { return nil }
    describedMetadata = metadata
    let layout = layout(metadata: metadata, instance: address)
    let firstPrecise = edges.count
    if let layout {
      switch layout.shape {
      case .fields(let slots):
        if layout.size > copied {
          copied = read(address, into: window, count: min(layout.size, Self.windowSize))
        }
        let view = MemoryWindow(base: address, bytes: UnsafeRawPointer(window), count: copied)
        apply(slots, base: address, window: view, prefix: nil, strongOnly: strongOnly, depth: 0, into: &edges)
      case .empty:
        break
      default:
        appendElements(ofStorage: address, prefix: "", strongOnly: strongOnly, into: &edges)
      }
    }
    if layout?.scansConservatively ?? true {
      let known = Set(edges[firstPrecise...].map(\.target))
      let targets: ConservativeTargets =
        layout == nil && isTaskMetadata(metadata) ? .closureContexts : .objects
      scanConservatively(
        address, size: scanSize(layout, of: address), skipping: known, targets: targets, into: &edges)
    }
    return layout
  }

  /// The Swift objects a conservative scan accepts as targets.
  enum ConservativeTargets {
    /// Any class instance, closure context or collection storage.
    case objects
    /// Closure contexts only: what a Swift task holds of the Swift heap is
    /// its closure's context (its frames are in its allocator's slabs, not
    /// in the task object). The rest of a task's block is the runtime's
    /// bookkeeping, storage it has not written yet and malloc's slack:
    /// measured, 6 of the 39 words of the task-loop scenario's 312-byte task
    /// keep what the block held before, which once closed a shorter, false
    /// cycle through an array the detector was holding.
    case closureContexts
  }

  /// Whether `metadata` is the metadata of a Swift task (its kind word is
  /// `MetadataKind::Task`, 0x502).
  func isTaskMetadata(_ metadata: UInt) -> Bool {
    word(at: metadata) == 0x502
  }

  private func compose(_ prefix: String?, _ label: String) -> String {
    guard let prefix, !prefix.isEmpty else { return label }
    if label.isEmpty { return prefix }
    return label.first == "[" ? prefix + label : "\(prefix).\(label)"
  }

  private func apply(
    _ slots: [Slot], base: UInt, window: MemoryWindow, prefix: String?, strongOnly: Bool, depth: Int,
    into edges: inout [RawEdge]
  ) {
    guard depth < 16 else { return }
    for slot in slots {
      let address = base + UInt(slot.offset)
      switch slot {
      case .reference(_, let strength, let label):
        if strongOnly && strength != .strong { continue }
        guard let value = window.word(at: address) ?? word(at: address), Self.isPlausibleObject(value)
        else { continue }
        var target = value
        if strength == .weak {
          // The weak reference is followed through safe reads only: loading
          // it with the runtime would trust memory another thread may free.
          endPrefetch()
          target = rm_weakTarget(address)
          guard Self.isPlausibleObject(target) else { continue }
        }
        edges.append(
          RawEdge(
            label: compose(prefix, label), target: target, strength: strength, isConservative: false,
            function: 0))
      case .function(_, let label):
        guard let context = window.word(at: address + 8) ?? word(at: address + 8),
          Self.isPlausibleObject(context)
        else { continue }
        let function = window.word(at: address) ?? word(at: address) ?? 0
        edges.append(
          RawEdge(
            label: compose(prefix, label), target: context, strength: .strong, isConservative: false,
            function: function))
      case .collection(_, let label):
        guard let storage = window.word(at: address) ?? word(at: address), Self.isPlausibleObject(storage)
        else { continue }
        appendElements(
          ofStorage: storage, prefix: compose(prefix, label), strongOnly: strongOnly, into: &edges)
      case .dynamic(_, let typeRef, let isEnum, let label):
        // The library reads the value itself: nothing read ahead may be used after it.
        endPrefetch()
        let inner: ValueSlots
        var start = address
        if isEnum {
          var caseIndex: Int32 = -1
          guard swift_reflection_projectEnumValue(context, UInt64(address), typeRef, &caseIndex) != 0,
            caseIndex >= 0
          else { continue }
          let payload = swift_reflection_childOfTypeRef(context, typeRef, UInt32(caseIndex))
          guard payload.typeRef != 0 || Self.strength(of: payload.kind) != nil else { continue }
          inner = slotsOfChild(payload)
        } else {
          var instanceType: RMTypeRef = 0
          var instanceStart: UInt64 = 0
          guard
            swift_reflection_projectExistential(
              context, UInt64(address), typeRef, &instanceType, &instanceStart) != 0, instanceType != 0
          else { continue }
          inner = self.slots(ofType: instanceType)
          start = UInt(instanceStart)
        }
        apply(
          inner.slots, base: start, window: window, prefix: compose(prefix, label), strongOnly: strongOnly,
          depth: depth + 1, into: &edges)
      }
    }
  }

  /// Appends the references held by the elements of an `Array`, `Dictionary` or `Set` storage.
  private func appendElements(
    ofStorage storage: UInt, prefix: String, strongOnly: Bool, into edges: inout [RawEdge]
  ) {
    // One read covers the header, the hash bitmap or the first elements; the
    // copy lives on the stack (no heap allocation per collection).
    withUnsafeTemporaryAllocation(byteCount: headerReadSize, alignment: 16) { buffer in
      guard let header = buffer.baseAddress else { return }
      appendElements(ofStorage: storage, header: header, prefix: prefix, strongOnly: strongOnly, into: &edges)
    }
  }

  private func appendElements(
    ofStorage storage: UInt, header: UnsafeMutableRawPointer, prefix: String, strongOnly: Bool,
    into edges: inout [RawEdge]
  ) {
    let copied = read(storage, into: header, count: headerReadSize)
    guard copied >= 16 else { return }
    let headerView = MemoryWindow(base: storage, bytes: UnsafeRawPointer(header), count: copied)
    let metadata = header.load(as: UInt.self)
    guard Self.isPlausibleObject(metadata), let layout = layout(metadata: metadata, instance: storage) else {
      return
    }
    switch layout.shape {
    case .arrayStorage(let element, let stride):
      guard !element.slots.isEmpty, stride > 0,
        let count = headerView.word(at: storage + 16) ?? word(at: storage + 16), count <= 1 << 24
      else { return }
      let firstElements = min(Int(count), max(0, copied - 32) / stride)
      for offset in 0..<firstElements {
        apply(
          element.slots, base: storage + 32 + UInt(offset * stride), window: headerView,
          prefix: compose(prefix, "[\(offset)]"), strongOnly: strongOnly, depth: 1, into: &edges)
      }
      guard firstElements < Int(count) else { return }
      let perChunk = max(1, Self.maximumObjectSize / stride)
      let buffer = UnsafeMutableRawPointer.allocate(byteCount: perChunk * stride, alignment: 16)
      defer { buffer.deallocate() }
      var index = firstElements
      while index < Int(count) {
        let chunk = min(perChunk, Int(count) - index)
        let start = storage + 32 + UInt(index * stride)
        let copied = read(start, into: buffer, count: chunk * stride)
        let view = MemoryWindow(base: start, bytes: UnsafeRawPointer(buffer), count: copied)
        for offset in 0..<chunk {
          apply(
            element.slots, base: start + UInt(offset * stride), window: view,
            prefix: compose(prefix, "[\(index + offset)]"), strongOnly: strongOnly, depth: 1, into: &edges)
        }
        index += chunk
      }
    case .dictionaryStorage(let key, let keyStride, let value, let valueStride):
      let keys = headerView.word(at: storage + 48) ?? word(at: storage + 48) ?? 0
      let values = headerView.word(at: storage + 56) ?? word(at: storage + 56) ?? 0
      forEachOccupiedBucket(storage, header: headerView, bitmapOffset: 64) { ordinal, bucket in
        if !key.slots.isEmpty {
          apply(
            key.slots, base: keys + bucket * UInt(keyStride), window: .none,
            prefix: compose(prefix, "keys[\(ordinal)]"), strongOnly: strongOnly, depth: 1, into: &edges)
        }
        if !value.slots.isEmpty {
          apply(
            value.slots, base: values + bucket * UInt(valueStride), window: .none,
            prefix: compose(prefix, "values[\(ordinal)]"), strongOnly: strongOnly, depth: 1, into: &edges)
        }
      }
    case .setStorage(let element, let stride):
      guard !element.slots.isEmpty else { return }
      let elements = headerView.word(at: storage + 48) ?? word(at: storage + 48) ?? 0
      forEachOccupiedBucket(storage, header: headerView, bitmapOffset: 56) { ordinal, bucket in
        apply(
          element.slots, base: elements + bucket * UInt(stride), window: .none,
          prefix: compose(prefix, "[\(ordinal)]"), strongOnly: strongOnly, depth: 1, into: &edges)
      }
    case .fields, .empty:
      break
    }
  }

  /// Calls `body` with the ordinal and bucket index of each occupied bucket of a hashed storage.
  ///
  /// A table with fewer than 64 buckets keeps its bitmap in one word whose bits
  /// past the last bucket are all set (the standard library's `_HashTable.clear()`
  /// does so to speed up its hole search): those bits are not buckets, and the
  /// memory they would index lies past the element arrays. No more than the
  /// storage's count of buckets are reported either.
  private func forEachOccupiedBucket(
    _ storage: UInt, header: MemoryWindow, bitmapOffset: UInt, _ body: (Int, UInt) -> Void
  ) {
    guard let scaleWord = header.word(at: storage + 32) ?? word(at: storage + 32),
      let count = header.word(at: storage + 16) ?? word(at: storage + 16)
    else { return }
    let scale = scaleWord & 0xFF
    guard scale < 32 else { return }
    let bucketCount = 1 << Int(scale)
    guard count <= UInt(bucketCount) else { return }
    let wordCount = (bucketCount + 63) / 64
    var ordinal = 0
    for wordIndex in 0..<wordCount {
      let address = storage + bitmapOffset + UInt(wordIndex * 8)
      guard var bits = header.word(at: address) ?? word(at: address) else { return }
      if bucketCount < 64 { bits &= (1 << UInt(bucketCount)) - 1 }
      while bits != 0 {
        guard ordinal < Int(count) else { return }
        let bit = bits.trailingZeroBitCount
        bits &= bits - 1
        body(ordinal, UInt(wordIndex * 64 + bit))
        ordinal += 1
      }
    }
  }

  /// How many bytes of an object to scan conservatively: its size from its
  /// metadata (a class's instance size, a closure context's size); for a heap
  /// object whose size no metadata gives (an async task), a fixed window, with
  /// safe reads only, since reading past its end cannot fault there, cut to
  /// its malloc block when glibc's header says it is shorter. A size is never
  /// taken from the allocator alone: block headers differ between malloc
  /// implementations, and sanitizers replace malloc.
  private func scanSize(_ layout: HeapLayout?, of address: UInt) -> Int {
    if let layout, layout.size > 0 { return layout.size }
    guard safeReads else { return 0 }
    return min(Self.firstReadSize, mallocBlockBound(of: address) ?? Self.firstReadSize)
  }

  /// An upper bound of the usable size of the malloc block at `address`
  /// (MemoryView reads glibc's chunk header; nil under another allocator): it
  /// shortens the fixed window for an object no metadata sizes (an async
  /// task: 312 bytes for the task-loop scenario's, where a 512-byte window
  /// read the next block's stale words as a shorter, wrong cycle). A header
  /// that looks wrong gives nil, the fixed window: the read stays safe.
  private func mallocBlockBound(of address: UInt) -> Int? {
    ProcessSnapshot.usableSizeOfOwnBlock(at: address) { word(at: $0) }
  }

  /// Finds words in the object's first `size` bytes that hold the address of
  /// a heap object Remote Mirror recognises; such edges are marked conservative.
  private func scanConservatively(
    _ address: UInt, size: Int, skipping known: Set<UInt>, targets: ConservativeTargets,
    into edges: inout [RawEdge]
  ) {
    let limit = min(size, Self.maximumObjectSize)
    guard limit > 16 else { return }
    let buffer = UnsafeMutableRawPointer.allocate(byteCount: limit, alignment: 16)
    defer { buffer.deallocate() }
    let copied = read(address, into: buffer, count: limit)
    var seen = known
    var offset = 16
    while offset + 8 <= copied {
      let candidate = buffer.load(fromByteOffset: offset, as: UInt.self)
      offset += 8
      guard candidate != address, candidate & 15 == 0, Self.isPlausibleObject(candidate),
        !seen.contains(candidate), let layout = layout(ofObjectAt: candidate), layout.kind != .other,
        targets == .objects || layout.kind == .closureContext
      else { continue }
      seen.insert(candidate)
      edges.append(
        RawEdge(
          label: "word \(offset / 8 - 1)", target: candidate, strength: .strong, isConservative: true,
          function: 0))
    }
  }
}
