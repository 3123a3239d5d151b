import CMemoryView
import MemoryView

#if canImport(Glibc)
  import Glibc
#endif

/// One typed graph of a process's heap, built once from a snapshot: what
/// `leaklab leaks`, the root-path search ("why is it alive"), the census of
/// live objects and everything after them read.
///
/// Every malloc block gets a kind and a type (``BlockKind``, ``HeapType``)
/// and its references are read its own way:
///
/// - **Exactly, where Swift metadata describes the block.** A class
///   instance's fields, a closure context's captures, a box's value, a
///   native `Array`'s elements up to its count, a `Dictionary`'s or `Set`'s
///   occupied buckets only; enums with payloads and existentials projected.
///   No padding, no slack, no stale word past a count is ever read as a
///   reference. Each reference keeps its strength (``EdgeKind``).
/// - **Conservatively, where nothing describes the memory.** C memory, and
///   the parts of a Swift object its metadata cannot lay out (a `Mutex`'s
///   contents): any word that points into a live block is an edge, marked
///   ``EdgeKind/conservative``, with the word it came from.
/// - **Never, where the memory is free.** Chunks on glibc's free lists are
///   not blocks at all; memory an allocator keeps for reuse (Dispatch's
///   continuation caches) and buffers that hold bytes only (stdio's) are
///   blocks that hold nothing.
///
/// A Swift object's strong count then says how many strong references to it
/// exist (``strongCount(of:)``): when the exact references account for all
/// of them, no conservative word can be one, and none is followed
/// (``admitsUncounted(into:)``). That is what keeps a stale word — a freed
/// object's address left in a buffer, a register, a stack slot — from
/// keeping a leak "reachable" or inventing a path.
///
/// The model is read from one thread at a time.
///
/// ```swift
/// let snapshot = try ProcessSnapshot(pid: pid, registers: registers)
/// let model = try HeapModel(snapshot: snapshot)
/// let reachable = model.reachableFromRoots()
/// for block in 0..<model.blockCount where !reachable.contains(block) && model.kind(of: block).canLeak {
///   print(model.type(of: block).name)
/// }
/// ```
public final class HeapModel: @unchecked Sendable {
  // @unchecked: built in `init`; afterwards the tables only change in the
  // caches the queries fill, and the model is used from one thread at a time.

  /// The snapshot the model was built from.
  public let snapshot: ProcessSnapshot
  /// The reflection layer over the snapshot's process.
  package let types: SwiftTypes

  // MARK: Per block (indexed by heap position)

  let kinds = ScratchBuffer<UInt8>()
  let typeIDs = ScratchBuffer<UInt32>()
  /// A Swift object's strong count (``unknownCount`` when not one, immortal, or unreadable).
  let strongCounts = ScratchBuffer<UInt32>()
  /// How many exact strong references point at each block's start.
  let exactStrongIn = ScratchBuffer<UInt32>()
  /// The Swift objects whose strong count leaves room for references no
  /// metadata counts (or is unknown), in block order: those
  /// ``admitUncountedReferences()`` decides about.
  let uncountedObjects = ScratchBuffer<UInt32>()
  /// The Swift objects whose strong count is zero (being destroyed): roots of the mark.
  let releasedObjects = ScratchBuffer<UInt32>()

  // MARK: Edges

  /// For each block, where its edges start in `outTargets` (count + 1 entries).
  let outStart = ScratchBuffer<UInt32>()
  /// Each edge's target, with ``interiorBit`` when it points into the middle.
  let outTargets = ScratchBuffer<UInt32>()
  /// Each edge's word position in its source (shifted left by ``wordShift``),
  /// ``admittedBit`` when it is one of the references a Swift object's
  /// strong count leaves room for, and its ``EdgeKind`` (``kindMask``).
  let outInfos = ScratchBuffer<UInt32>()
  /// For each block, where its referrers start in `inSources` (count + 1 entries).
  let inStart = ScratchBuffer<UInt32>()
  /// Each referrer, with the interior bit of its edge.
  let inSources = ScratchBuffer<UInt32>()
  /// Each referrer's edge, as a position in `outTargets`.
  let inEdges = ScratchBuffer<UInt32>()
  /// Whether the backward index holds every block's referrers, or only
  /// those the build asked for (``Builder/buildBackwardIndex()``).
  var backwardIndexIsComplete = false

  // MARK: Roots

  /// Root words pointing into blocks, sorted by target: the target (with the
  /// interior bit), the word's address (0 for a register), the root's kind.
  let rootTargets = ScratchBuffer<UInt32>()
  let rootAddresses = ScratchBuffer<UInt>()
  let rootOrigins = ScratchBuffer<UInt32>()
  /// 1 for a root word into a Swift object that its strong count leaves room for.
  let rootAdmitted = ScratchBuffer<UInt8>()
  /// The kinds of root, indexed by `rootOrigins`.
  var rootKinds: [RootKind] = []
  /// Blocks that are roots themselves (dynamic TLS, registered roots), with their kind's index.
  var rootBlocks: [Int: Int] = [:]
  /// The Swift runtime's metadata memory and the root words of its caches
  /// (see ``markMetadataMemory()``): never a holder of a Swift object.
  var metadataBlocks = Set<Int>()
  var metadataRootPositions = Set<Int>()
  /// Each object's weak reference side table: the object holds it through
  /// its counts word (a pointer shifted and flagged, which no conservative
  /// scan sees), so the table lives as long as the object, weak references
  /// or not.
  var sideTableOfObject: [Int: Int] = [:]
  /// The task slabs some live task's allocator claims, with the tasks that
  /// claim each (see ``Builder/assignSlabOwners()``): only their task holds them.
  var slabTasks: [Int: [Int]] = [:]
  /// Each child task's parent (a task group's or an `async let`'s task), as
  /// the child's fragment and the parent's status records say.
  var parentTasks: [Int: Int] = [:]

  // MARK: Types

  /// Every type met, indexed by the per-block type ids; 0 is plain malloc memory.
  public internal(set) var heapTypes: [HeapType] = [.mallocBlock]
  /// The layout of each Swift type (nil for C types and for closures whose
  /// layout depends on the instance).
  var typeLayouts: [HeapLayout?] = [nil]
  /// Whether each type's layout is computed per instance (a generic closure's context).
  var layoutPerInstance: [Bool] = [false]
  /// The modules whose types are the program's own (see ``programModules``).
  public let programModules: Set<String>

  /// What the build looked at and what it cost.
  public internal(set) var figures = Figures()
  /// The stack that allocated each block, when a recorder kept them (``AllocationStacks``).
  public internal(set) var allocationStacks: AllocationStacks?

  /// How much of the heap a model reads.
  public enum Scope: Sendable, Hashable {
    /// Every block typed, every reference read, the roots scanned: what
    /// leaks, root paths and growth paths need.
    case full
    /// Every block typed (its kind, its type, a Swift object's strong
    /// count), no reference read and no root scanned: what a census needs,
    /// in a fraction of the time. Edges, roots and paths are empty.
    case types
  }

  /// What the model read (see ``Scope``).
  public let scope: Scope

  /// The strong count of a block that is not a counted Swift object.
  static let unknownCount = UInt32.max
  /// Set on a stored target when the pointer points into the middle of the block.
  static let interiorBit: UInt32 = 1 << 31  // MV_INTERIOR_BIT
  /// An edge's info word: its kind, whether it is admitted, its word
  /// position (laid out in CMemoryViewScan.h, which the C loops read).
  static let kindMask = UInt32(MV_EDGE_KIND_MASK)
  static let admittedBit = UInt32(MV_EDGE_ADMITTED)
  static let wordShift = UInt32(MV_EDGE_WORD_SHIFT)

  /// What building a model looked at and what it cost.
  public struct Figures: Sendable, Hashable {
    public var blocks = 0
    public var edges = 0
    public var exactEdges = 0
    public var rootEdges = 0
    public var bytesRead = 0
    public var rootBytes = 0
    public var swiftObjects = 0
    /// Objects whose exact referrers outnumber their strong count (a layout misread, or a race): their counts are not used.
    public var overcounted = 0
    public var milliseconds = 0.0
  }

  /// The number of malloc blocks.
  public var blockCount: Int { snapshot.heap.count }

  /// Builds the model of `snapshot`'s heap.
  ///
  /// - Parameters:
  ///   - programModules: the modules whose types are the program's own;
  ///     by default the executable's name (`Feed` for `.build/debug/Feed`)
  ///     and, for a test bundle, its modules whose names end in `Tests`.
  ///   - rootRanges: the root ranges to scan instead of the snapshot's
  ///     (`leaklab leaks` cuts stopped threads' stacks to their live frames).
  ///   - scope: ``Scope/full`` (the default) reads every reference;
  ///     ``Scope/types`` only types the blocks, for a census.
  public init(
    snapshot: ProcessSnapshot, programModules: Set<String>? = nil, rootRanges: [RootRange]? = nil,
    scope: Scope = .full
  ) throws(HeapModelError) {
    let clock = ContinuousClock()
    let start = clock.now
    self.snapshot = snapshot
    do {
      types = try SwiftTypes(reading: snapshot)
    } catch {
      throw HeapModelError(description: error.description)
    }
    self.programModules = programModules ?? Self.defaultProgramModules(snapshot)
    self.scope = scope
    var builder = Builder(model: self)
    builder.run()
    if scope == .full {
      scanRoots(rootRanges ?? snapshot.roots.ranges)
      markCallerTask()
      markMetadataMemory()
      admitUncountedReferences()
    }
    figures.blocks = blockCount
    figures.edges = Int(outStart.base![blockCount])
    figures.milliseconds = Self.milliseconds(clock.now - start)
  }

  static func milliseconds(_ duration: Duration) -> Double {
    Double(duration.components.seconds) * 1000 + Double(duration.components.attoseconds) / 1e15
  }

  /// The executable's name, and a test bundle's `…Tests` modules.
  static func defaultProgramModules(_ snapshot: ProcessSnapshot) -> Set<String> {
    var buffer = [CChar](repeating: 0, count: 4096)
    let length = readlink("/proc/\(snapshot.pid)/exe", &buffer, buffer.count - 1)
    guard length > 0 else { return [] }
    let path = String(decoding: buffer.prefix(length).map { UInt8(bitPattern: $0) }, as: UTF8.self)
    var name = path.split(separator: "/").last.map(String.init) ?? path
    if let dot = name.firstIndex(of: ".") { name = String(name[..<dot]) }
    return [name.replacingDashes]
  }

  /// Bytes of the model's own tables.
  public var tableBytes: Int {
    (kinds.capacity) + (typeIDs.capacity + strongCounts.capacity + exactStrongIn.capacity) * 4
      + (outStart.capacity + outTargets.capacity + outInfos.capacity + inStart.capacity + inSources.capacity
        + inEdges.capacity + rootTargets.capacity + rootOrigins.capacity) * 4 + rootAddresses.capacity * 8
  }

  // MARK: Blocks

  /// The kind of block `block`.
  public func kind(of block: Int) -> BlockKind { BlockKind(rawValue: kinds.base![block]) ?? .mallocBlock }

  /// The type of block `block`.
  public func type(of block: Int) -> HeapType { heapTypes[Int(typeIDs.base![block])] }

  /// The type id of block `block` (an index into ``heapTypes``).
  public func typeID(of block: Int) -> Int { Int(typeIDs.base![block]) }

  /// The block's address and usable size.
  public func block(_ block: Int) -> MallocBlock { snapshot.heap[block] }

  /// The block whose memory contains `address`, or nil.
  public func block(containing address: UInt) -> Int? { snapshot.heap.index(containing: address) }

  /// The strong count of Swift object `block`, or nil when it is not a
  /// counted Swift object (or is immortal, or its counts could not be read).
  public func strongCount(of block: Int) -> Int? {
    let count = strongCounts.base![block]
    return count == Self.unknownCount ? nil : Int(count)
  }

  /// The object whose side table `block` is (nil when it is not one, or its object is gone).
  public func sideTableOwner(of block: Int) -> Int? {
    guard kind(of: block) == .sideTable else { return nil }
    return edges(from: block).first { $0.kind == .back }?.target
  }

  /// How many exact strong references (fields, captures, elements) point at `block`.
  public func exactStrongReferences(to block: Int) -> Int { Int(exactStrongIn.base![block]) }

  /// How many of `block`'s strong references no metadata names: its strong
  /// count less its exact strong referrers (nil when it is not a counted
  /// Swift object).
  public func uncountedReferences(to block: Int) -> Int? {
    let count = strongCounts.base![block]
    guard count != Self.unknownCount else { return nil }
    return max(0, Int(count) - Int(exactStrongIn.base![block]))
  }

  // MARK: Edges

  /// One reference from a block (or a root word) to a block.
  public struct Edge: Sendable, Hashable {
    /// The block holding the reference.
    public var source: Int
    /// The block referred to.
    public var target: Int
    /// How it holds the target.
    public var kind: EdgeKind
    /// Where in the source the reference is, in words.
    public var word: Int
    /// Whether it points into the middle of the target.
    public var isInterior: Bool
    /// For a reference no metadata counts (a conservative word, an
    /// `Unmanaged` field) into a Swift object: whether it is one of the
    /// references the object's strong count leaves room for (see
    /// ``admitUncountedReferences()``).
    public var isAdmitted: Bool
    /// The position of the edge in the model's tables.
    public var position: Int
  }

  /// The edges out of `block`.
  public func edges(from block: Int) -> [Edge] {
    let start = Int(outStart.base![block])
    let end = Int(outStart.base![block + 1])
    return (start..<end).map { edge(at: $0, source: block) }
  }

  /// The edges into `block`.
  public func edges(into block: Int) -> [Edge] {
    if !backwardIndexIsComplete { completeBackwardIndex() }
    let start = Int(inStart.base![block])
    let end = Int(inStart.base![block + 1])
    return (start..<end).map { slot in
      edge(at: Int(inEdges.base![slot]), source: Int(inSources.base![slot] & ~Self.interiorBit))
    }
  }

  /// Builds the backward index for every block, the first time a path is asked for.
  func completeBackwardIndex() {
    backwardIndexIsComplete = true
    inStart.fillWithZeros(count: blockCount + 1)
    mv_countBackward(outTargets.base, outStart.base, blockCount, inStart.base)
    fillBackwardIndex(wanted: nil)
  }

  /// Fills the backward index with the referrers of the blocks `wanted`
  /// marks (every block's when nil), from each block's count of referrers
  /// in `inStart[block + 1]` (`mv_keepHeldEdges`, `mv_countBackward`).
  func fillBackwardIndex(wanted: UnsafePointer<UInt8>?) {
    let total = mv_startBackward(inStart.base, blockCount, wanted)
    for table in [inSources, inEdges] {
      table.removeAll()
      table.reserve(total)
      table.grow(by: total)
    }
    // No slot to fill (every block's referrers accounted for): no pass over the edges.
    guard total > 0 else { return }
    mv_fillBackward(
      outTargets.base, outStart.base, blockCount, wanted, inStart.base, inSources.base, inEdges.base)
  }

  func edge(at position: Int, source: Int) -> Edge {
    let target = outTargets.base![position]
    let info = outInfos.base![position]
    return Edge(
      source: source, target: Int(target & ~Self.interiorBit),
      kind: EdgeKind(rawValue: UInt8(info & Self.kindMask)) ?? .conservative,
      word: Int(info >> Self.wordShift),
      isInterior: target & Self.interiorBit != 0, isAdmitted: info & Self.admittedBit != 0, position: position
    )
  }

  /// Whether `edge` can be one of the references that hold its target's
  /// memory: the kind allows it, and a reference no metadata counts into a
  /// Swift object only when the object's strong count leaves room for it
  /// (``Edge/isAdmitted``).
  public func holdsMemory(_ edge: Edge) -> Bool {
    switch edge.kind {
    case .back: return false
    case .strong, .unowned, .weak: return true
    case .conservative, .unmanaged: return !kind(of: edge.target).isSwiftObject || edge.isAdmitted
    }
  }

  /// Whether `edge` can keep its target alive: a strong reference, or one no
  /// metadata counts that the target's strong count leaves room for.
  public func holdsLife(_ edge: Edge) -> Bool {
    switch edge.kind {
    case .strong: return true
    case .unowned, .weak, .back: return false
    case .conservative, .unmanaged: return !kind(of: edge.target).isSwiftObject || edge.isAdmitted
    }
  }
}

/// Why a heap model could not be built.
public struct HeapModelError: Error, Sendable, CustomStringConvertible {
  public var description: String
}

extension String {
  /// `my-tool` as a module name: `my_tool`.
  var replacingDashes: String { String(map { $0 == "-" ? "_" : $0 }) }
}
