import CHeapModel
import CMemoryView
import CRemoteMirror
import MemoryView

#if canImport(Glibc)
  import Glibc
#endif

extension HeapModel {
  /// One pass over the heap, block by block in address order, each window of
  /// blocks copied once: every block is classified by its first word and its
  /// references are read as its kind says (see ``HeapModel``). Then the side
  /// tables found from their objects' counts are told apart, the references
  /// no rule admits are dropped, and the backward index is built.
  struct Builder {
    unowned(unsafe) let model: HeapModel
    let heap: MallocHeap
    let types: SwiftTypes
    /// Where the edges go.
    var sink: EdgeSink
    /// The type id each first word makes a block (0: plain malloc memory).
    var typeByFirstWord: [UInt: UInt32] = [:]
    /// Blocks whose kind is known before they are read (free caches, byte buffers).
    let presetKinds: [Int: BlockKind]
    let presetBlocks: BlockSet
    /// Per type id: its kind, its flags, its slots when they are references
    /// at fixed offsets only (the common class: read without walking the
    /// layout), the largest block an instance can be (see
    /// ``largestBlock(for:metadata:foundation:)``). Tables for the C step.
    let typeInfos = ScratchBuffer<HMTypeInfo>()
    let slotTable = ScratchBuffer<HMSlot>()
    /// The last type ids found by first word: a direct-mapped cache before
    /// the dictionary (`hm_recentSlot`; the C step reads it too).
    let recentFirstWords = ScratchBuffer<UInt>()
    let recentTypeIDs = ScratchBuffer<UInt32>()
    /// The C step's state (see CHeapModel.h).
    var reader = HMBlockReader()
    /// Objects whose counts are in a side table, in block order, and each
    /// table's address (the C step appends to them too).
    let sideTableObjects = ScratchBuffer<UInt32>()
    let sideTableAddresses = ScratchBuffer<UInt>()
    /// The sizes Block descriptors give.
    var blockDescriptorSizes: [UInt: Int] = [:]
    /// The ids of the C types met, by kind and name.
    var cTypeIDs: [String: UInt32] = [:]
    /// Each side table's object.
    var sideTableOwner: [Int: Int] = [:]
    /// Each task slab's tasks (see ``assignSlabOwners()``).
    var slabOwners: [Int: [Int]] = [:]
    var bytesRead = 0
    var swiftObjects = 0
    let taskSlabMetadata: UInt
    let mallocBlockClass: UInt
    /// The executable image: its types may be the program's own.
    let executable: LoadedImage?
    let foundation: LoadedImage?
    /// Whether references are read (``HeapModel/Scope/full``), or blocks only typed.
    let readsReferences: Bool
    static let windowSize = WindowedReader.defaultCapacity
    /// Where a block larger than a window is copied, one after the other
    /// (one mapping for all of them: each fresh one was pages to zero).
    let largeBlockBuffer = ScratchBuffer<UInt8>()

    init(model: HeapModel) {
      self.model = model
      heap = model.snapshot.heap
      types = model.types
      sink = EdgeSink(model: model, index: heap.blockIndex.raw)
      presetKinds = FreeMemory.presetKinds(in: model.snapshot)
      presetBlocks = BlockSet(count: heap.count)
      for block in presetKinds.keys { presetBlocks.insert(block) }
      taskSlabMetadata = model.snapshot.taskSlabMetadata ?? 0
      let images = model.snapshot.images
      mallocBlockClass =
        images.images.first { $0.name.hasPrefix("libBlocksRuntime") }?
        .address(ofSymbol: "_NSConcreteMallocBlock", kinds: .object) ?? 0
      executable = images.images.first
      foundation = images.images.first { $0.name.hasPrefix("libFoundation.so") }
      readsReferences = model.scope == .full
      recentFirstWords.fillWithZeros(count: Int(HM_RECENT_SLOTS))
      recentTypeIDs.fillWithZeros(count: Int(HM_RECENT_SLOTS))
      appendType(.mallocBlock)
    }

    mutating func run() {
      let count = heap.count
      model.kinds.fill(BlockKind.mallocBlock.rawValue, count: count)
      model.typeIDs.fillWithZeros(count: count)
      model.strongCounts.fill(HeapModel.unknownCount, count: count)
      model.exactStrongIn.fillWithZeros(count: count)
      model.outStart.fillWithZeros(count: count + 1)
      if readsReferences {
        // Every edge is a word of its block: room for as many edges as the
        // heaps have words, reserved at once (pages are touched only as the
        // tables fill), so that the tables never move and take huge pages
        // from their start (grown from one page, most of their pages were
        // 4 KiB ones: a fault and a page to zero each).
        let words = heap.heapRanges.reduce(1) { $0 + Int($1.upperBound - $1.lowerBound) / 8 }
        model.outTargets.reserve(words)
        model.outInfos.reserve(words)
        readBlocks()
      } else {
        typeBlocks()
      }
      model.outStart.base![count] = UInt32(model.outTargets.count)
      model.figures.bytesRead = bytesRead
      model.figures.swiftObjects = swiftObjects
      model.figures.exactEdges = sink.exactEdges
      resolveSideTables()
      let tasks = blocks(ofKind: .task)
      nameTasks(tasks)
      if readsReferences {
        assignSlabOwners(tasks)
        dropUnheldEdges()
        buildBackwardIndex()
      } else {
        model.inStart.fillWithZeros(count: count + 1)
      }
    }

    /// The blocks of `kind`, found with `memchr` in the kinds table: for the
    /// kinds a heap holds few of (a pass per block cost a millisecond at 10⁶).
    private func blocks(ofKind kind: BlockKind) -> [Int] {
      guard let kinds = model.kinds.base else { return [] }
      var found: [Int] = []
      var cursor = kinds
      let end = kinds + heap.count
      while cursor < end, let hit = memchr(cursor, Int32(kind.rawValue), end - cursor) {
        let block = hit.assumingMemoryBound(to: UInt8.self)
        found.append(block - kinds)
        cursor = block + 1
      }
      return found
    }

    /// Reads every block, a window of blocks at a time, and its references.
    private mutating func readBlocks() {
      let count = heap.count
      let windows = WindowedReader(memory: model.snapshot.memory, capacity: Self.windowSize)
      let starts = heap.startPointer
      let sizes = heap.sizePointer
      prepareReader()
      var position = 0
      while position < count {
        let start = starts[position]
        let copied = windows.load(start, limit: start + UInt(Self.windowSize))
        bytesRead += copied
        var next = position
        if let bytes = windows.bytes.baseAddress, copied >= 8 {
          next = read(
            from: position, to: count, window: UnsafeRawPointer(bytes), start: start, length: copied)
        }
        if next == position {
          // A block larger than a window (or unreadable at its start): read it alone.
          visitAlone(position, size: Int(sizes[position]))
          next += 1
        }
        position = next
      }
    }

    /// Reads the blocks from `position` on (before `end`) that lie whole in
    /// the `length` bytes copied from `start`: the C step reads the common
    /// ones, the Swift step (``visit(_:bytes:size:setStart:)``) each one it
    /// leaves. Returns the first block it did not read.
    private mutating func read(
      from position: Int, to end: Int, window: UnsafeRawPointer, start: UInt, length: Int
    )
      -> Int
    {
      reader.position = position
      while true {
        lendTables()
        hm_readBlocks(&reader, window.assumingMemoryBound(to: UInt8.self), start, length, end)
        takeTables()
        let stopped = reader.position
        switch Int(reader.stop) {
        case HMStopFull:
          // Doubled: room for any number of slots in a few rounds.
          model.outTargets.reserve(model.outTargets.count * 2 + 4096)
          model.outInfos.reserve(model.outInfos.count * 2 + 4096)
          sink.weakEdges.reserve(sink.weakEdges.count * 2 + 64)
          sideTableObjects.reserve(sideTableObjects.count * 2 + 64)
          sideTableAddresses.reserve(sideTableAddresses.count * 2 + 64)
        case HMStopUnclassified:
          _ = classify(
            window.load(fromByteOffset: Int(heap.startPointer[stopped] - start), as: UInt.self),
            block: stopped)
        case HMStopSwift:
          let offset = Int(heap.startPointer[stopped] - start)
          visit(stopped, bytes: window + offset, size: Int(heap.sizePointer[stopped]))
          reader.position = stopped + 1
        default:
          return stopped
        }
      }
    }

    /// Sets the C step's tables that do not move while blocks are read.
    private mutating func prepareReader() {
      reader.index = sink.index
      reader.starts = UnsafePointer(heap.startPointer)
      reader.sizes = UnsafePointer(heap.sizePointer)
      reader.flags = UnsafePointer(heap.flagPointer)
      reader.internalFlag = MallocHeap.internalFlag
      reader.presetBlocks = UnsafePointer(presetBlocks.mutableWords)
      reader.allocatorKind = BlockKind.allocator.rawValue
      reader.kinds = model.kinds.base
      reader.typeIDs = model.typeIDs.base
      reader.strongCounts = model.strongCounts.base
      reader.outStart = model.outStart.base
      reader.recentFirstWords = UnsafePointer(recentFirstWords.base)
      reader.recentTypeIDs = UnsafePointer(recentTypeIDs.base)
    }

    /// Points the C step at the tables that grow, as they are now (a type
    /// met, an edge written by the Swift step, may have moved them).
    private mutating func lendTables() {
      reader.types = UnsafePointer(typeInfos.base)
      reader.slots = UnsafePointer(slotTable.base)
      reader.targets = model.outTargets.base
      reader.infos = model.outInfos.base
      reader.edgeCount = model.outTargets.count
      reader.edgeCapacity = min(model.outTargets.capacity, model.outInfos.capacity)
      reader.weakEdges = sink.weakEdges.base
      reader.weakCount = sink.weakEdges.count
      reader.weakCapacity = sink.weakEdges.capacity
      reader.sideTableObjects = sideTableObjects.base
      reader.sideTables = sideTableAddresses.base
      reader.sideTableCount = sideTableObjects.count
      reader.sideTableCapacity = min(sideTableObjects.capacity, sideTableAddresses.capacity)
    }

    /// Counts what the C step wrote into the tables and figures.
    private mutating func takeTables() {
      model.outTargets.grow(by: reader.edgeCount - model.outTargets.count)
      model.outInfos.grow(by: reader.edgeCount - model.outInfos.count)
      sink.weakEdges.grow(by: reader.weakCount - sink.weakEdges.count)
      sideTableObjects.grow(by: reader.sideTableCount - sideTableObjects.count)
      sideTableAddresses.grow(by: reader.sideTableCount - sideTableAddresses.count)
      swiftObjects += reader.swiftObjects
      sink.exactEdges += reader.exactEdges
      reader.swiftObjects = 0
      reader.exactEdges = 0
    }

    /// Types every block from the two words the heap walk kept of it (its
    /// first word: the metadata; its second: a Swift object's counts),
    /// without reading the process again: what a census needs.
    private mutating func typeBlocks() {
      precondition(
        heap.keepsSecondWords, "HeapModel: a census needs a heap that kept the blocks' second words")
      // Plain pointers and locals: this loop runs once per block.
      let count = heap.count
      let sizes = heap.sizePointer
      let flags = heap.flagPointer
      let firstWords = heap.firstWordPointer
      let secondWords = heap.secondWordPointer
      let kinds = model.kinds.base!
      let typeIDs = model.typeIDs.base!
      let strongCounts = model.strongCounts.base!
      let presets = presetBlocks
      let internalFlag = MallocHeap.internalFlag
      for block in 0..<count {
        if flags[block] & internalFlag != 0 {
          kinds[block] = BlockKind.allocator.rawValue
          continue
        }
        if presets.contains(block), let preset = presetKinds[block] {
          kinds[block] = preset.rawValue
          continue
        }
        let size = Int(sizes[block])
        guard size >= 8 else { continue }
        let typeID = classify(firstWords[block], block: block)
        let type = typeInfos.base![Int(typeID)]
        let kind = BlockKind(rawValue: type.kind) ?? .mallocBlock
        if kind.isSwiftObject {
          let counts = size >= 16 ? UInt64(secondWords[block]) : 0
          guard sol_isPlausibleCounts(counts), UInt64(size) <= type.largestBlock else { continue }
          swiftObjects += 1
          if !sol_isImmortal(counts) {
            let table = sol_sideTable(counts)
            if table != 0 {
              sideTableObjects.append(UInt32(block))
              sideTableAddresses.append(table)
            } else {
              strongCounts[block] = sol_strongCount(counts)
            }
          }
        }
        typeIDs[block] = typeID
        kinds[block] = kind.rawValue
      }
    }

    /// Reads a block that does not fit in a window on its own.
    private mutating func visitAlone(_ block: Int, size: Int) {
      model.outStart.base![block] = UInt32(model.outTargets.count)
      let address = heap.startPointer[block]
      guard size > 0, size <= 256 << 20 else { return }
      let buffer = largeBlockBuffer
      buffer.removeAll()
      buffer.reserve(size)
      buffer.grow(by: size)
      let copied = model.snapshot.memory.read(
        address, into: UnsafeMutableRawBufferPointer(start: buffer.base, count: size))
      bytesRead += copied
      guard copied >= 8, let bytes = buffer.base else { return }
      if copied == size {
        _ = read(from: block, to: block + 1, window: UnsafeRawPointer(bytes), start: address, length: copied)
      } else {
        visit(block, bytes: UnsafeRawPointer(bytes), size: copied & ~7, setStart: false)
      }
    }

    // MARK: One block

    private mutating func visit(_ block: Int, bytes: UnsafeRawPointer, size: Int, setStart: Bool = true) {
      if setStart { model.outStart.base![block] = UInt32(model.outTargets.count) }
      if heap.isInternal(block) {
        setKind(block, .allocator)
        return
      }
      if presetBlocks.contains(block), let preset = presetKinds[block] {
        setKind(block, preset)
        return
      }
      guard size >= 8 else { return }
      let first = bytes.load(as: UInt.self)
      let typeID = classify(first, block: block)
      let type = typeInfos.base![Int(typeID)]
      let kind = BlockKind(rawValue: type.kind) ?? .mallocBlock
      if kind.isSwiftObject {
        let counts = size >= 16 ? bytes.load(fromByteOffset: 8, as: UInt64.self) : 0
        guard sol_isPlausibleCounts(counts), UInt64(size) <= type.largestBlock else {
          // Not an object after all (a C block whose first word happens to
          // be a metadata address): plain memory.
          sink.conservative(block, bytes: bytes, from: 0, to: size)
          return
        }
        // Objects whose references all sit at fixed offsets, and strings'
        // storage, are the C step's (hm_readBlocks); the rest are walked by
        // their layouts.
        guard
          let layout = model.layoutPerInstance[Int(typeID)]
            ? types.layout(metadata: first, instance: heap.startPointer[block])
            : model.typeLayouts[Int(typeID)]
        else {
          sink.conservative(block, bytes: bytes, from: 0, to: size)
          return
        }
        model.typeIDs.base![block] = typeID
        setKind(block, kind)
        swiftObjects += 1
        recordCounts(block, counts)
        readSwiftObject(block, layout: layout, bytes: bytes, size: size, metadata: first)
        return
      }
      model.typeIDs.base![block] = typeID
      setKind(block, kind)
      switch kind {
      case .block:
        // `Block_copy` allocates exactly its descriptor's size: the rest is malloc's slack.
        let length = size >= 32 ? blockSize(descriptor: bytes.load(fromByteOffset: 24, as: UInt.self)) : 0
        sink.conservative(block, bytes: bytes, from: 0, to: length >= 32 && length <= size ? length : size)
      case .taskFrames:
        // A slab: metadata, next slab, then capacity and bump offset (32 bits
        // each); past the offset lie dead frames.
        guard size >= 32 else { return }
        let used = Int(bytes.load(fromByteOffset: 20, as: UInt32.self))
        sink.conservative(block, bytes: bytes, from: 0, to: min(size, Self.slabHeaderSize + used))
      default:
        var end = size
        if let text = InstanceExtents.cStringExtent(bytes, count: size)
          ?? InstanceExtents.countedArrayExtent(bytes, count: size)
        {
          end = min(end, text)
        }
        sink.conservative(block, bytes: bytes, from: 0, to: end)
      }
    }

    /// Bytes before a task slab's first frame (measured on Swift 6.3: a slab
    /// of 1016 usable bytes has a capacity of 984).
    static let slabHeaderSize = 32

    private func setKind(_ block: Int, _ kind: BlockKind) { model.kinds.base![block] = kind.rawValue }

    @inline(__always)
    private mutating func recordCounts(_ block: Int, _ counts: UInt64) {
      if sol_isImmortal(counts) { return }
      let table = sol_sideTable(counts)
      if table != 0 {
        sideTableObjects.append(UInt32(block))
        sideTableAddresses.append(table)
        return
      }
      model.strongCounts.base![block] = sol_strongCount(counts)
    }

    // MARK: Swift objects

    private mutating func readSwiftObject(
      _ block: Int, layout: HeapLayout, bytes: UnsafeRawPointer, size: Int, metadata: UInt
    ) {
      // (The kind first: matching the shape copies it, a retain per object.)
      if layout.kind == .arrayStorage, case .arrayStorage(let element, 8) = layout.shape,
        element.opaqueRanges.isEmpty,
        element.slots.count == 1, case .reference(0, let strength, _) = element.slots[0],
        size >= Int(SOLArrayElementsOffset)
      {
        // An array of class references, read as its walk reads it (its
        // elements up to its count), without the walk's generic step per
        // element: the `[Node]` of 10⁶ objects was a tenth of its model.
        let kind = EdgeKind(strength)
        for item in 0..<ObjectWalk.arrayElementCount(bytes, size: size, stride: 8) {
          let offset = Int(SOLArrayElementsOffset) + item * 8
          sink.exact(bytes.load(fromByteOffset: offset, as: UInt.self), at: offset, from: block, kind: kind)
        }
        return
      }
      let walk = ObjectWalk(
        types: types, address: heap.startPointer[block], bytes: bytes, size: size, layout: layout)
      var visitor = EdgeRecorder(sink: sink, block: block, bytes: bytes)
      let covered = walk.walk(&visitor)
      sink.exactEdges = visitor.sink.exactEdges
      if layout.kind == .task {
        // A task holds what its closure captured through its context; its
        // frames are in its allocator's slabs (other blocks). Its other words
        // are the runtime's bookkeeping and storage not yet written: only its
        // words into closure contexts are kept (``dropUnheldEdges()``).
        sink.conservative(block, bytes: bytes, from: 16, to: size)
        return
      }
      if layout.hasOpaqueTail || hasForeignTail(metadata: metadata, layout: layout, size: size) {
        sink.conservative(block, bytes: bytes, from: covered, to: tailEnd(layout, bytes: bytes, size: size))
      }
    }

    /// Records a walk's references as the block's edges.
    struct EdgeRecorder: ReferenceVisitor {
      var sink: EdgeSink
      let block: Int
      let bytes: UnsafeRawPointer

      mutating func reference(_ word: UInt, at offset: Int, kind: EdgeKind, slot: Slot, context: SlotContext)
      {
        sink.exact(word, at: offset, from: block, kind: kind)
      }

      mutating func opaque(from: Int, to: Int, context: SlotContext) {
        sink.conservative(block, bytes: bytes, from: from, to: to)
      }
    }

    /// Whether the object's block holds memory past its Swift layout that
    /// another runtime wrote: Foundation's classes, whose instances
    /// CoreFoundation creates larger than the class.
    private func hasForeignTail(metadata: UInt, layout: HeapLayout, size: Int) -> Bool {
      guard layout.kind == .object, let foundation, foundation.contains(metadata) else { return false }
      return size > layout.size + 16
    }

    /// Where an opaque tail ends: a key path's buffer says its own size.
    private func tailEnd(_ layout: HeapLayout, bytes: UnsafeRawPointer, size: Int) -> Int {
      guard layout.isKeyPath else { return size }
      let header = (layout.size + 3) & ~3
      guard header + 4 <= size else { return size }
      let length = Int(bytes.load(fromByteOffset: header, as: UInt32.self) & 0x00FF_FFFF)
      return min(size, header + 8 + length)
    }

    /// The size a Block descriptor gives (its second word), once per descriptor.
    private mutating func blockSize(descriptor: UInt) -> Int {
      if let known = blockDescriptorSizes[descriptor] { return known }
      let size = model.snapshot.memory.word(at: descriptor + 8).map { $0 < 1 << 20 ? Int($0) : 0 } ?? 0
      blockDescriptorSizes[descriptor] = size
      return size
    }
  }

  /// Appends edges to the model's tables: what a walk of a block finds.
  struct EdgeSink {
    // unowned(unsafe): the builder's model outlives every sink, and a
    // checked unowned reference costs a retain per edge.
    unowned(unsafe) let model: HeapModel
    var index: MVBlockIndex
    var exactEdges = 0
    /// The positions of the weak edges, in the order written (few: a pass
    /// over every edge to find them cost 1 % of a model of 10⁶ objects).
    /// Shared by the copies of the sink an object's walk makes.
    let weakEdges = ScratchBuffer<UInt32>()
    // The model's edge tables, used without a retain: reading them through
    // the model retained each table once per edge, and so did loading an
    // `unowned(unsafe)` reference to them (a release per edge: 5 % of a
    // model of 10⁶ objects).
    let targets: Unmanaged<ScratchBuffer<UInt32>>
    let infos: Unmanaged<ScratchBuffer<UInt32>>

    init(model: HeapModel, index: MVBlockIndex) {
      self.model = model
      self.index = index
      targets = Unmanaged.passUnretained(model.outTargets)
      infos = Unmanaged.passUnretained(model.outInfos)
    }

    /// Adds the reference `word` (at byte `offset` of `source`) of `kind`,
    /// if it points into a live block.
    mutating func exact(_ word: UInt, at offset: Int, from source: Int, kind: EdgeKind) {
      var target: UInt32 = 0
      var info: UInt32 = 0
      guard hm_exactEdge(&index, word, UInt32(offset), UInt32(kind.rawValue), &target, &info) else { return }
      targets._withUnsafeGuaranteedRef { targets in
        infos._withUnsafeGuaranteedRef { infos in
          let count = targets.count
          if count == targets.capacity {
            targets.reserve(count + 1)
            infos.reserve(count + 1)
          }
          targets.base.unsafelyUnwrapped[count] = target
          infos.base.unsafelyUnwrapped[count] = info
          targets.grow(by: 1)
          infos.grow(by: 1)
          if info & HeapModel.kindMask == UInt32(EdgeKind.weak.rawValue) { weakEdges.append(UInt32(count)) }
        }
      }
      exactEdges += 1
    }

    /// Adds every word of `[from, to)` of `source` that points into another
    /// live block, as `kind` (conservative by default).
    mutating func conservative(
      _ source: Int, bytes: UnsafeRawPointer, from: Int, to: Int, kind: EdgeKind = .conservative
    ) {
      let first = max(0, from + 7) / 8
      let end = to / 8
      guard end > first else { return }
      let count = end - first
      let words = (bytes + first * 8).assumingMemoryBound(to: UInt.self)
      targets._withUnsafeGuaranteedRef { targets in
        infos._withUnsafeGuaranteedRef { infos in
          targets.reserve(targets.count + count)
          infos.reserve(infos.count + count)
          let written = mv_scanConservative(
            &index, words, count, UInt32(source), UInt32(first), UInt32(kind.rawValue),
            targets.base! + targets.count, infos.base! + infos.count)
          targets.grow(by: written)
          infos.grow(by: written)
        }
      }
    }
  }
}

extension HMSlot {
  /// The slots of `layout` when they are all references at fixed offsets
  /// (no enum or existential to project, nothing opaque, no tail), else nil.
  static func compile(_ layout: HeapLayout) -> [HMSlot]? {
    guard case .fields(let slots) = layout.shape, layout.opaqueRanges.isEmpty, !layout.hasOpaqueTail,
      layout.kind != .task
    else { return nil }
    var compiled: [HMSlot] = []
    for slot in slots {
      switch slot {
      case .reference(let offset, let strength, _):
        compiled.append(HMSlot(offset: Int32(offset), kind: EdgeKind(strength).rawValue, isFunction: false))
      case .collection(let offset, _):
        compiled.append(HMSlot(offset: Int32(offset), kind: EdgeKind.strong.rawValue, isFunction: false))
      case .rawPointer(let offset, _):
        compiled.append(HMSlot(offset: Int32(offset), kind: EdgeKind.unmanaged.rawValue, isFunction: false))
      case .function(let offset, _):
        compiled.append(HMSlot(offset: Int32(offset), kind: EdgeKind.strong.rawValue, isFunction: true))
      case .dynamic:
        return nil
      }
    }
    return compiled
  }
}
