import CMemoryView

/// Who points at whom in a process's memory: every word of every root and
/// every live block that holds the address of (or into) a live block, found
/// by one conservative scan and indexed backwards, so that "who points at
/// this block?" and "what is the shortest chain of pointers from a root to
/// it?" are answered without scanning again.
///
/// A conservative scan cannot tell a pointer from a number that looks like
/// one, nor a live field from a stale copy; callers that know better (Swift
/// metadata) filter the hops with `admit`.
///
/// Memory: 8 bytes per pointer found while scanning (released after), then
/// 8 per pointer and 8 per block for the two indexes (backwards and
/// forwards), 16 per root word; all in scratch mappings released with the graph.
///
/// ```swift
/// let snapshot = try ProcessSnapshot()
/// let graph = PointerGraph(snapshot: snapshot)
/// if let block = snapshot.heap.index(containing: address),
///   let path = graph.pathToRoot(from: block) {
///   print(path.root.kind, path.blocks.count)
/// }
/// ```
public final class PointerGraph: @unchecked Sendable {
  // @unchecked: built in `init`, then only read.
  public let snapshot: ProcessSnapshot
  /// For each block, where its referrers start in `sources` (count + 1 entries).
  private let offsets = ScratchBuffer<UInt32>()
  private let sources = ScratchBuffer<UInt32>()
  /// For each block, where its own pointers start in `targets` (count + 1 entries).
  private let forwardOffsets = ScratchBuffer<UInt32>()
  private let targets = ScratchBuffer<UInt32>()
  /// Root words pointing at blocks, sorted by target: target, word address, root index.
  private let rootTargets = ScratchBuffer<UInt32>()
  private let rootAddresses = ScratchBuffer<UInt>()
  private let rootIndices = ScratchBuffer<UInt32>()
  // The tables as plain pointers once built (fast in debug builds too).
  private var offsetPointer = UnsafeMutablePointer<UInt32>(bitPattern: 8)!
  private var sourcePointer = UnsafeMutablePointer<UInt32>(bitPattern: 8)!
  private var forwardOffsetPointer = UnsafeMutablePointer<UInt32>(bitPattern: 8)!
  private var targetPointer = UnsafeMutablePointer<UInt32>(bitPattern: 8)!
  private var rootTargetPointer = UnsafeMutablePointer<UInt32>(bitPattern: 8)!
  private var rootAddressPointer = UnsafeMutablePointer<UInt>(bitPattern: 8)!
  private var rootIndexPointer = UnsafeMutablePointer<UInt32>(bitPattern: 8)!
  private var rootTargetCount = 0
  /// The root kinds, indexed by `rootIndices` (ranges, then words, then blocks).
  private var rootKinds: [RootKind] = []
  /// Blocks that are roots themselves, with their kind's index.
  private var rootBlocks: [Int: Int] = [:]
  /// Pointers found: from blocks, and from roots.
  public private(set) var blockReferenceCount = 0
  public private(set) var rootReferenceCount = 0
  /// Bytes of memory read.
  public private(set) var bytesScanned = 0

  /// How much Swift the scan assumes.
  public struct Options: OptionSet, Sendable, Hashable {
    public var rawValue: Int
    public init(rawValue: Int) { self.rawValue = rawValue }

    /// A Swift object with weak references to it has a side table (a malloc
    /// block whose first word points back at the object), and a `weak var`
    /// points at the side table: the side table's pointer back is not a
    /// strong reference, so it is left out. Found from each block's second
    /// word (the reference counts: top two bits set, table address shifted
    /// right by 3) and confirmed by the table's first word.
    public static let swiftSideTables = Options(rawValue: 1)

    /// A Swift task keeps its async frames in slabs (malloc blocks starting
    /// with the concurrency library's slab metadata, then the next slab, then
    /// the capacity and the bump offset, 32 bits each); past the offset lie
    /// dead frames, whose stale words are not scanned.
    public static let swiftTaskSlabs = Options(rawValue: 2)

    /// A block is scanned only as far as it holds data, as `leaklab leaks`'
    /// mark does (``InstanceExtents``): a Swift class instance up to its
    /// instance size (except tail-allocating and Foundation classes), a key
    /// path to its buffer's end, a native string's storage not at all
    /// without breadcrumbs, a C string to its NUL, a counted array without
    /// its trailing word. Past that lies malloc's slack, with stale words.
    public static let instanceExtents = Options(rawValue: 4)

    /// The default: everything above.
    public static let `default`: Options = [.swiftSideTables, .swiftTaskSlabs, .instanceExtents]
  }

  /// Bytes before a task slab's first frame (measured on Swift 6.3: a slab
  /// of 1016 usable bytes has a capacity of 984).
  static let slabHeaderSize = 32

  /// Side tables found (objects with weak references to them).
  public private(set) var sideTableCount = 0

  /// Scans every root and every live block of `snapshot` once.
  public init(snapshot: ProcessSnapshot, options: Options = .default) {
    var slabMetadata: UInt? = nil
    self.snapshot = snapshot
    let heap = snapshot.heap
    let scanner = WordScanner(heap: heap, memory: snapshot.memory)
    // Roots.
    // Targets carry `interiorBit` when the word points into the middle of the block.
    var rootEdges: [(target: UInt32, address: UInt, root: UInt32)] = []
    for range in snapshot.roots.ranges {
      let root = UInt32(rootKinds.count)
      rootKinds.append(range.kind)
      bytesScanned += range.range.count
      scanner.scan(range.range) { address, target, atStart in
        rootEdges.append((UInt32(target) | (atStart ? 0 : Self.interiorBit), address, root))
      }
    }
    for word in snapshot.roots.words {
      let root = UInt32(rootKinds.count)
      rootKinds.append(word.kind)
      if let (target, atStart) = scanner.resolve(word.value) {
        rootEdges.append((UInt32(target) | (atStart ? 0 : Self.interiorBit), 0, root))
      }
    }
    for (index, kind) in snapshot.roots.blocks {
      rootBlocks[index] = rootKinds.count
      rootKinds.append(kind)
    }
    rootEdges.sort { $0.target & ~Self.interiorBit < $1.target & ~Self.interiorBit }
    for edge in rootEdges {
      rootTargets.append(edge.target)
      rootAddresses.append(edge.address)
      rootIndices.append(edge.root)
    }
    rootReferenceCount = rootEdges.count
    // Blocks: every pointer as (source, target), then grouped by target.
    let edges = ScratchBuffer<UInt64>()
    var scanned = 0
    // (side table address, object block) for objects whose counts point at a side table.
    var sideTableCandidates: [(table: UInt, object: Int)] = []
    slabMetadata = options.contains(.swiftTaskSlabs) ? snapshot.taskSlabMetadata : nil
    let extents =
      options.contains(.instanceExtents)
      ? InstanceExtents(memory: snapshot.memory, images: snapshot.images, heapRanges: heap.heapRanges) : nil
    scanner.scanBlocks(into: edges) { position, head, bytes in
      guard !heap.isInternal(position) else { return nil }
      var words = Int(heap.sizePointer[position]) / 8
      if let extents, let bytes {
        let count = words * 8
        if let data = InstanceExtents.cStringExtent(bytes, count: count)
          ?? InstanceExtents.countedArrayExtent(bytes, count: count)
        {
          words = min(words, data / 8)
        }
        if words >= 2, let limit = extents.scanLimit(metadata: head.0, bytes: bytes, count: count) {
          words = min(words, (limit + 7) / 8)
        }
      }
      if options.contains(.swiftSideTables), head.1 >> 62 == 3 {
        sideTableCandidates.append(((head.1 & 0x3FFF_FFFF_FFFF_FFFF) << 3, position))
      }
      var range = 0..<words
      if let slabMetadata, head.0 == slabMetadata {
        // A task allocator slab: header, then frames up to its bump offset; past it, dead frames.
        let live = Int(head.2 >> 32)
        range = 0..<min(words, (Self.slabHeaderSize + live + 7) / 8)
      }
      scanned += range.count * 8
      return range
    }
    bytesScanned += scanned
    let sideTables = Self.confirmSideTables(sideTableCandidates, heap: heap, memory: snapshot.memory)
    sideTableCount = sideTables.count
    if !sideTables.isEmpty {
      // Drop each side table's pointer back at its object.
      let tables = BlockSet(count: heap.count)
      for pair in sideTables { tables.insert(Int(pair >> 32)) }
      let pairs = sideTables.sorted()
      let kept = pairs.withUnsafeBufferPointer { pairs in
        mv_dropEdges(edges.base, edges.count, pairs.baseAddress, pairs.count, tables.words)
      }
      edges.truncate(to: kept)
    }
    blockReferenceCount = edges.count
    offsets.fill(0, count: heap.count + 1)
    forwardOffsets.fill(0, count: heap.count + 1)
    sources.fill(0, count: edges.count)
    targets.fill(0, count: edges.count)
    let cursor = ScratchBuffer<UInt32>()
    cursor.fill(0, count: heap.count)
    mv_buildIndexes(
      edges.base, edges.count, heap.count, offsets.base, sources.base, forwardOffsets.base, targets.base,
      cursor.base)
    for table in [offsets, sources, forwardOffsets, targets, rootTargets, rootIndices] { table.reserve(1) }
    rootAddresses.reserve(1)
    offsetPointer = offsets.base!
    sourcePointer = sources.base!
    forwardOffsetPointer = forwardOffsets.base!
    targetPointer = targets.base!
    rootTargetPointer = rootTargets.base!
    rootAddressPointer = rootAddresses.base!
    rootIndexPointer = rootIndices.base!
    rootTargetCount = rootTargets.count
    let caller = RootKind.callerStack(thread: snapshot.threads.threads.first { $0.isCallingThread }?.id ?? 0)
    for block in callerTaskBlocks(slabMetadata: slabMetadata) where rootBlocks[block] == nil {
      rootBlocks[block] = rootKinds.count
      rootKinds.append(caller)
    }
  }

  /// In our own process, the blocks of the caller's Swift task and of the
  /// tasks linked with it (parent, children, siblings): task objects and
  /// their allocators' slabs, where async frames keep the caller's (and its
  /// test harness's) local variables. Like the calling thread's stack, they
  /// are the weakest of roots, and never a step on a path.
  private func callerTaskBlocks(slabMetadata: UInt?) -> [Int] {
    let heap = snapshot.heap
    guard snapshot.callerTask != 0, let taskMetadata = snapshot.taskMetadata,
      let first = heap.index(containing: snapshot.callerTask)
    else { return [] }
    var tasks = [first]
    var seen: Set<Int> = [first]
    var position = 0
    while position < tasks.count, tasks.count < 4096 {
      let task = tasks[position]
      position += 1
      for next in referencedBlocks(from: task) + referringBlocks(of: task)
      where heap.firstWord(of: next) == taskMetadata && seen.insert(next).inserted {
        tasks.append(next)
      }
    }
    guard let slabMetadata else { return tasks }
    var blocks = tasks
    var slabs = tasks.flatMap { referencedBlocks(from: $0) }.filter { heap.firstWord(of: $0) == slabMetadata }
    while let slab = slabs.popLast() {
      guard seen.insert(slab).inserted else { continue }
      blocks.append(slab)
      slabs += referencedBlocks(from: slab).filter { heap.firstWord(of: $0) == slabMetadata }
    }
    return blocks
  }

  /// Set on a stored block position when the pointer points into the middle of the block.
  static let interiorBit: UInt32 = 1 << 31  // MV_INTERIOR_BIT

  /// The blocks that hold a pointer into block `index` (each once); with
  /// `startsOnly`, only those that point at its start.
  public func referringBlocks(of index: Int, startsOnly: Bool = false) -> [Int] {
    var result: [Int] = []
    for position in Int(offsetPointer[index])..<Int(offsetPointer[index + 1]) {
      let entry = sourcePointer[position]
      if startsOnly && entry & Self.interiorBit != 0 { continue }
      let source = Int(entry & ~Self.interiorBit)
      if result.last != source { result.append(source) }
    }
    return result
  }

  /// The blocks that block `index` holds a pointer into (each once).
  public func referencedBlocks(from index: Int) -> [Int] {
    var result: [Int] = []
    var seen = Set<Int>()
    for position in Int(forwardOffsetPointer[index])..<Int(forwardOffsetPointer[index + 1]) {
      let target = Int(targetPointer[position] & ~Self.interiorBit)
      if seen.insert(target).inserted { result.append(target) }
    }
    return result
  }

  /// Marks every block reachable from the roots, following every pointer
  /// found (a conservative mark): what is not marked is unreachable, leaked.
  public func reachableFromRoots() -> BlockSet {
    let marked = BlockSet(count: snapshot.heap.count)
    let stack = ScratchBuffer<UInt32>()
    func push(_ block: Int) {
      if marked.insert(block) { stack.append(UInt32(block)) }
    }
    for position in 0..<rootTargetCount { push(Int(rootTargetPointer[position] & ~Self.interiorBit)) }
    for block in rootBlocks.keys { push(block) }
    while stack.count > 0 {
      let block = Int(stack.removeLast())
      for position in Int(forwardOffsetPointer[block])..<Int(forwardOffsetPointer[block + 1]) {
        push(Int(targetPointer[position] & ~Self.interiorBit))
      }
    }
    return marked
  }

  /// The root words that point into block `index`, and whether the block is
  /// a root itself; with `startsOnly`, only words that point at its start.
  public func roots(of index: Int, startsOnly: Bool = false) -> [RootReference] {
    var result: [RootReference] = []
    if let root = rootBlocks[index] { result.append(RootReference(kind: rootKinds[root], wordAddress: 0)) }
    var low = 0
    var high = rootTargetCount
    while low < high {
      let middle = (low + high) / 2
      if Int(rootTargetPointer[middle] & ~Self.interiorBit) < index {
        low = middle + 1
      } else {
        high = middle
      }
    }
    while low < rootTargetCount, Int(rootTargetPointer[low] & ~Self.interiorBit) == index {
      if !startsOnly || rootTargetPointer[low] & Self.interiorBit == 0 {
        result.append(
          RootReference(kind: rootKinds[Int(rootIndexPointer[low])], wordAddress: rootAddressPointer[low]))
      }
      low += 1
    }
    return result
  }

  /// The (side table block << 32 | object block) pairs whose side table's
  /// first word points back at the object.
  private static func confirmSideTables(
    _ candidates: [(table: UInt, object: Int)], heap: MallocHeap, memory: ProcessMemory
  ) -> Set<UInt64> {
    guard !candidates.isEmpty else { return [] }
    let backPointers = memory.words(at: candidates.map(\.table))
    var pairs = Set<UInt64>()
    for (candidate, back) in zip(candidates, backPointers) {
      guard let back, back == heap.startPointer[candidate.object],
        let table = heap.index(containing: candidate.table),
        heap.startPointer[table] == candidate.table
      else { continue }
      pairs.insert(UInt64(table) << 32 | UInt64(candidate.object))
    }
    return pairs
  }

  /// Whether block `index` is a root itself.
  public func isRootBlock(_ index: Int) -> Bool { rootBlocks[index] != nil }

  /// Bytes of scratch memory the graph's tables use.
  public var tableBytes: Int {
    (offsets.capacity + sources.capacity + forwardOffsets.capacity + targets.capacity + rootTargets.capacity
      + rootIndices.capacity) * 4
      + rootAddresses.capacity * 8
  }
}

/// A root word that points into a block.
public struct RootReference: Sendable, Hashable {
  /// What kind of root holds the word.
  public var kind: RootKind
  /// Where the word is (0 for a register or a block that is a root itself).
  public var wordAddress: UInt
}
