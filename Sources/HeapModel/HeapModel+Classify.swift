import CHeapModel
import CMemoryView
import CRemoteMirror
import MemoryView

extension HeapModel.Builder {
  /// The metadata kinds a Swift heap object's first word can point at.
  static let heapMetadataKinds: Set<UInt> = [
    UInt(SOLKindClass), UInt(SOLKindHeapLocalVariable), UInt(SOLKindHeapGenericLocalVariable),
    UInt(SOLKindErrorObject), UInt(SOLKindTask),
  ]

  /// The type of a block whose first word is `first` (0: plain malloc
  /// memory), decided once per distinct first word.
  ///
  /// A first word is Swift metadata when the word it points at is a heap
  /// metadata kind and Remote Mirror lays the type out; a word that points
  /// at another block's start (the usual first word of C memory: a list's
  /// `next`) is decided from that block's first word, with no read.
  @inline(__always)
  mutating func classify(_ first: UInt, block: Int) -> UInt32 {
    guard SwiftTypes.isPlausibleObject(first) else { return 0 }
    let slot = hm_recentSlot(first)
    if recentFirstWords.base![slot] == first { return recentTypeIDs.base![slot] }
    return classifyAgain(first, block: block, slot: slot)
  }

  /// ``classify(_:block:)`` past its cache of recent first words.
  private mutating func classifyAgain(_ first: UInt, block: Int, slot: Int) -> UInt32 {
    let id: UInt32
    if let known = typeByFirstWord[first] {
      id = known
    } else {
      id = computeType(first, address: heap.startPointer[block])
      typeByFirstWord[first] = id
    }
    recentFirstWords.base![slot] = first
    recentTypeIDs.base![slot] = id
    return id
  }

  private mutating func computeType(_ first: UInt, address: UInt) -> UInt32 {
    var kindWord: UInt?
    if let target = heap.index(containing: first), heap.startPointer[target] == first {
      kindWord = heap.firstWordPointer[target]
    } else {
      kindWord = model.snapshot.memory.word(at: first)
    }
    if let kindWord, Self.heapMetadataKinds.contains(kindWord),
      let layout = types.layout(metadata: first, instance: address)
    {
      let variableCaptures =
        kindWord == UInt(SOLKindHeapLocalVariable) && !types.capturesHaveFixedLayout(contextMetadata: first)
      let perInstance = kindWord == UInt(SOLKindTask) || variableCaptures
      return addSwiftType(layout, metadata: first, perInstance: perInstance)
    }
    return cType(first)
  }

  private mutating func addSwiftType(_ layout: HeapLayout, metadata: UInt, perInstance: Bool) -> UInt32 {
    let module = layout.module
    let name = layout.kind == .closureContext ? "closure context" : layout.typeName
    let type = HeapType(
      kind: layout.kind, name: name,
      censusName: layout.kind == .closureContext && layout.censusName == "closure" ? name : layout.censusName,
      qualifiedName: layout.qualifiedName, image: model.snapshot.images.image(containing: metadata)?.name,
      isProgramType: module.map { model.programModules.contains($0) } ?? false)
    model.heapTypes.append(type)
    model.typeLayouts.append(perInstance ? nil : layout)
    model.layoutPerInstance.append(perInstance)
    appendType(
      type.kind, slots: perInstance ? nil : HMSlot.compile(layout),
      largestBlock: Self.largestBlock(for: layout, metadata: metadata, foundation: foundation))
    return UInt32(model.heapTypes.count - 1)
  }

  /// Adds a type id's entry to the tables of the step per block (see
  /// ``typeInfos``): its kind, its slots when they are all at fixed offsets.
  mutating func appendType(_ kind: BlockKind, slots: [HMSlot]? = nil, largestBlock: Int = .max) {
    var info = HMTypeInfo()
    info.kind = kind.rawValue
    info.largestBlock = UInt64(largestBlock)
    if kind.isSwiftObject { info.flags |= UInt8(HMTypeSwiftObject) }
    if kind == .stringStorage { info.flags |= UInt8(HMTypeStringStorage) }
    if let slots {
      info.flags |= UInt8(HMTypeSimple)
      info.firstSlot = UInt32(slotTable.count)
      info.slotCount = UInt32(slots.count)
      for slot in slots { slotTable.append(slot) }
    }
    typeInfos.append(info)
  }

  /// The largest malloc block an instance of `layout` can be: the runtime
  /// allocates a class instance or a closure context at exactly its size,
  /// so a larger block whose first word is the metadata is no instance (a
  /// copy of one in a buffer, a stale header). No bound for objects with a
  /// tail (storages, `ManagedBuffer`, CoreFoundation objects behind
  /// Foundation's classes).
  static func largestBlock(for layout: HeapLayout, metadata: UInt, foundation: LoadedImage?) -> Int {
    guard case .fields = layout.shape, !layout.hasOpaqueTail, !layout.hasLockTail, layout.size > 0,
      layout.kind == .object || layout.kind == .closureContext, foundation?.contains(metadata) != true
    else { return Int.max }
    return InstanceExtents.usableSize(requested: layout.size) + 32
  }

  /// The type of a C block whose first word is `first`: a Block, a task's
  /// frames, or an object of a C runtime named after the symbol its first
  /// word points at (a vtable, an isa); else plain malloc memory.
  private mutating func cType(_ first: UInt) -> UInt32 {
    if first == mallocBlockClass, first != 0 {
      return internedType(.block, "Block", image: nil, isRuntimeType: true)
    }
    if first == taskSlabMetadata, first != 0 {
      return internedType(.taskFrames, "Task frames", image: nil, isRuntimeType: true)
    }
    guard let image = model.snapshot.images.image(containing: first),
      let symbol = image.symbol(containing: first, kinds: .object)
    else { return 0 }
    let runtimeName = CRuntimeNames.name(ofSymbol: symbol.name)
    let name = runtimeName ?? TypeNames.unqualified(symbol.demangled)
    let kind: BlockKind = name == "Block" ? .block : .cObject
    return internedType(kind, name, image: image.name, isRuntimeType: runtimeName != nil)
  }

  /// The id of the C type `name`, made the first time it is met.
  private mutating func internedType(_ kind: BlockKind, _ name: String, image: String?, isRuntimeType: Bool)
    -> UInt32
  {
    let key = "\(kind.rawValue) \(name)"
    if let known = cTypeIDs[key] { return known }
    var type = HeapType(
      kind: kind, name: name, censusName: name, qualifiedName: nil, image: image, isProgramType: false)
    type.isRuntimeType = isRuntimeType
    model.heapTypes.append(type)
    model.typeLayouts.append(nil)
    model.layoutPerInstance.append(false)
    appendType(kind)
    let id = UInt32(model.heapTypes.count - 1)
    cTypeIDs[key] = id
    return id
  }

  // MARK: After the pass

  /// Tells the side tables apart, now that every object's counts were read:
  /// a side table's counts are the object's, its pointer back holds nothing.
  mutating func resolveSideTables() {
    let memory = model.snapshot.memory
    let sideTableType = internedType(.sideTable, "weak reference side table", image: nil, isRuntimeType: true)
    let sideTables = (0..<sideTableObjects.count).map {
      (object: Int(sideTableObjects.base![$0]), table: sideTableAddresses.base![$0])
    }
    let counts = memory.words(at: sideTables.map { $0.table + UInt(SOLSideTableBitsOffset) })
    for (entry, bits) in zip(sideTables, counts) {
      guard let table = heap.index(containing: entry.table), heap.startPointer[table] == entry.table,
        memory.word(at: entry.table) == heap.startPointer[entry.object]
      else { continue }
      model.kinds.base![table] = BlockKind.sideTable.rawValue
      model.typeIDs.base![table] = sideTableType
      sideTableOwner[table] = entry.object
      model.sideTableOfObject[entry.object] = table
      if let bits, !sol_isImmortal(UInt64(bits)) {
        model.strongCounts.base![entry.object] = sol_strongCount(UInt64(bits))
      }
    }
    markOrphanSideTables(type: sideTableType)
  }

  /// A block a weak reference points at that is no object's side table is
  /// the side table of an object already freed: it holds nothing.
  private mutating func markOrphanSideTables(type: UInt32) {
    guard sink.weakEdges.count > 0, let targets = model.outTargets.base else { return }
    let kinds = model.kinds.base!
    for position in sink.weakEdges.buffer {
      let target = Int(targets[Int(position)] & ~HeapModel.interiorBit)
      guard let kind = BlockKind(rawValue: kinds[target]), kind == .mallocBlock || kind == .cObject else {
        continue
      }
      kinds[target] = BlockKind.sideTable.rawValue
      model.typeIDs.base![target] = type
    }
  }

  /// Finds each of the `tasks`' slabs: the first from the library (the
  /// task's allocator), the rest linked from it (a slab's second word).
  ///
  /// A slab may be claimed by more than one task: the allocator of a task
  /// that has ended, or a chain's last link, can still point at memory
  /// another task now uses. Each claim holds it; none takes it from another
  /// (measured: a leaked task's first slab, taken by another task's stale
  /// link, left its closure's context to that task; a live task's slab,
  /// taken the other way, read as leaked).
  mutating func assignSlabOwners(_ tasks: [Int]) {
    let kinds = model.kinds.base!
    let memory = model.snapshot.memory
    for task in tasks {
      let result = swift_reflection_asyncTaskSlabPointer(types.context, UInt64(heap.startPointer[task]))
      guard result.error == nil else { continue }
      var slab = UInt(result.slab)
      var claimed: Set<Int> = []
      while claimed.count < 4096, slab != 0, let block = heap.index(containing: slab),
        heap.startPointer[block] == slab, kinds[block] == BlockKind.taskFrames.rawValue,
        claimed.insert(block).inserted
      {
        slabOwners[block, default: []].append(task)
        slab = memory.word(at: slab + 8) ?? 0
      }
    }
    model.slabTasks = slabOwners
  }

  /// Names each of the `tasks` after the closure it runs: `Task (closure in
  /// TickerScreen.start())`, the outermost of its async frames (Remote
  /// Mirror's backtrace of the task), else the function it resumes next.
  /// Tasks that run the same closure share a type, so a census counts them
  /// apart.
  mutating func nameTasks(_ tasks: [Int]) {
    var idsByName: [String: UInt32] = [:]
    for task in tasks {
      let info = swift_reflection_asyncTaskInfo(types.context, UInt64(heap.startPointer[task]))
      recordParent(of: task, info: info)
      guard info.error == nil else { continue }
      var frames: [UInt] = []
      if let backtrace = info.asyncBacktraceFrames {
        frames = (0..<Int(info.asyncBacktraceFrameCount)).map { UInt(backtrace[$0]) }
      }
      frames.append(UInt(info.runJob))
      guard let closure = ClosureNames.taskEntry(frames: frames, in: model.snapshot.images) else { continue }
      let taskType = model.typeIDs.base![task]
      let name = "\(model.heapTypes[Int(taskType)].name) (\(closure))"
      if let known = idsByName[name] {
        model.typeIDs.base![task] = known
        continue
      }
      var type = model.heapTypes[Int(taskType)]
      type.name = name
      type.censusName = name
      model.heapTypes.append(type)
      model.typeLayouts.append(model.typeLayouts[Int(taskType)])
      model.layoutPerInstance.append(model.layoutPerInstance[Int(taskType)])
      appendType(type.kind)
      let id = UInt32(model.heapTypes.count - 1)
      idsByName[name] = id
      model.typeIDs.base![task] = id
    }
  }

  /// Records the structured parent of `task` and of the children its
  /// status records list (``HeapModel/parentTasks``).
  private mutating func recordParent(of task: Int, info: RMAsyncTaskInfo) {
    let kinds = model.kinds.base!
    func taskBlock(at address: UInt) -> Int? {
      guard let block = heap.index(containing: address), heap.startPointer[block] == address,
        kinds[block] == BlockKind.task.rawValue
      else { return nil }
      return block
    }
    // A child task's fragment (its parent, then its next sibling) follows
    // the task's fixed part (see ``SwiftTypes/asyncTaskSize``). Its job
    // flags say it is a child: the library's answer is an error for a task
    // with children when it cannot find the size (it has no symbols of a
    // copy's), and Swift Testing's tree was then cut to 2 tasks of 7.
    if let flags = types.taskFlags(at: heap.startPointer[task]), flags & SwiftTypes.taskIsChild != 0,
      let fixedSize = types.asyncTaskSize, heap[task].size >= fixedSize + 8,
      let word = model.snapshot.memory.word(at: heap.startPointer[task] + UInt(fixedSize)),
      let parent = taskBlock(at: word), parent != task
    {
      model.parentTasks[task] = parent
    }
    guard info.error == nil, let children = info.childTasks else { return }
    for position in 0..<Int(info.childTaskCount) {
      if let child = taskBlock(at: UInt(children[position])), child != task {
        model.parentTasks[child] = task
      }
    }
  }

  /// Drops the edges no rule lets hold anything, compacting the tables: a
  /// side table's words but its pointer back (marked ``EdgeKind/back``), a
  /// task's words but those into closure contexts and its frames' slabs,
  /// words into a task's frames from anything but their task or its other slabs,
  /// and every edge into free memory. Counts, in the same pass (in C,
  /// `mv_keepHeldEdges`), each block's exact strong referrers (to its start)
  /// and each block's referrers among the edges kept: the backward index's
  /// counts (``buildBackwardIndex()``).
  mutating func dropUnheldEdges() {
    let count = heap.count
    var rules = [UInt8](repeating: 0, count: 256)
    for kind in BlockKind.allCases {
      if kind.isFree { rules[Int(kind.rawValue)] |= UInt8(MVEdgeRuleDropInto) }
    }
    rules[Int(BlockKind.taskFrames.rawValue)] |= UInt8(MVEdgeRuleAskInto)
    rules[Int(BlockKind.sideTable.rawValue)] |= UInt8(MVEdgeRuleAskOutOf)
    rules[Int(BlockKind.task.rawValue)] |= UInt8(MVEdgeRuleAskOutOf)
    model.inStart.fillWithZeros(count: count + 1)
    var context = HeldEdgeRules(
      kinds: model.kinds.base!, sideTableOwner: sideTableOwner, slabOwners: slabOwners)
    let kept = withUnsafeMutablePointer(to: &context) { context in
      mv_keepHeldEdges(
        model.outStart.base, model.outTargets.base, model.outInfos.base, count, model.kinds.base, rules,
        model.exactStrongIn.base, model.inStart.base,
        { context, source, target, info in
          context!.assumingMemoryBound(to: HeldEdgeRules.self).pointee.holds(
            from: Int(source), rawTarget: target, info: &info!.pointee)
        }, context)
    }
    model.outTargets.truncate(to: kept)
    model.outInfos.truncate(to: kept)
  }

  /// Builds the backward index for what the model's build asks of it: the
  /// referrers of every block but the Swift objects whose exact references
  /// account for their whole strong count (no other word can hold those,
  /// so nothing asks who else points at them until a path is asked for,
  /// ``HeapModel/edges(into:)``). In a heap of 10⁶ Swift objects that is
  /// almost none of them (the analysis' median CPU 221 → 189 ms, 20 MB less).
  /// Counts, in the same pass, the objects with more exact strong referrers
  /// than their strong count (``Figures/overcounted``).
  mutating func buildBackwardIndex() {
    let count = heap.count
    let wanted = ScratchBuffer<UInt8>(capacity: count + 1)
    // Reserved for every block, touched only as far as they fill.
    model.uncountedObjects.reserve(count + 1)
    model.releasedObjects.reserve(count + 1)
    let found = mv_markWanted(
      model.kinds.base, BlockKind.swiftObjectTable, model.strongCounts.base, model.exactStrongIn.base,
      HeapModel.unknownCount,
      count, wanted.base, model.uncountedObjects.base, model.releasedObjects.base)
    model.uncountedObjects.grow(by: found.uncountedCount)
    model.releasedObjects.grow(by: found.releasedCount)
    model.figures.overcounted += Int(found.overcounted)
    model.fillBackwardIndex(wanted: wanted.base)
  }
}

/// The rules of ``HeapModel/Builder/dropUnheldEdges()`` that need more than
/// the two blocks' kinds: asked only about edges out of side tables and tasks
/// and into a task's frames.
private struct HeldEdgeRules {
  let kinds: UnsafeMutablePointer<UInt8>
  let sideTableOwner: [Int: Int]
  let slabOwners: [Int: [Int]]

  /// Whether the edge from `source` to `rawTarget` (with its interior bit) holds its target.
  func holds(from source: Int, rawTarget: UInt32, info: inout UInt32) -> Bool {
    let target = Int(rawTarget & ~HeapModel.interiorBit)
    let sourceKind = BlockKind(rawValue: kinds[source]) ?? .mallocBlock
    let targetKind = BlockKind(rawValue: kinds[target]) ?? .mallocBlock
    // A task's frames are held by their task's allocator (and the slab
    // before them) only: a word elsewhere that points at a slab is stale.
    if targetKind == .taskFrames, !holdsSlab(target, from: source, sourceKind: sourceKind) { return false }
    switch sourceKind {
    case .sideTable:
      guard sideTableOwner[source] == target, rawTarget & HeapModel.interiorBit == 0 else { return false }
      info = info & ~HeapModel.kindMask | UInt32(EdgeKind.back.rawValue)
      return true
    case .task:
      // A task holds its closure's context and its allocator's slabs,
      // and a finished future's result (its exact references).
      return targetKind == .closureContext || targetKind == .taskFrames
        || info & HeapModel.kindMask != UInt32(EdgeKind.conservative.rawValue)
    default:
      return true
    }
  }

  /// Whether an edge from `source` into task slab `slab` can hold it: only
  /// from the slab's own task, or another slab of that task.
  func holdsSlab(_ slab: Int, from source: Int, sourceKind: BlockKind) -> Bool {
    guard let owners = slabOwners[slab] else { return sourceKind == .task || sourceKind == .taskFrames }
    switch sourceKind {
    case .task: return owners.contains(source)
    case .taskFrames: return slabOwners[source]?.contains { owners.contains($0) } ?? false
    default: return false
    }
  }
}
