import CMemoryView
import MemoryView

/// Marks every malloc block reachable from the roots of a stopped process, by
/// a conservative word scan: a word that points into a block keeps it.
///
/// Temporary home: MemoryView's own scan engine replaces this once it lands
/// (see /work/briefs/requests-memview.md); the Swift-specific rules below go
/// with it.
/// - A word's top byte is dropped before the lookup: Swift keeps tag bits
///   there (a `String`'s object word, enums with payloads).
///   Odd words count (the Swift runtime's own tables keep tag bits in a
///   pointer's low bits).
/// - A Swift class instance is scanned only up to its instance size
///   (``InstanceExtents``): malloc's slack after it holds stale words.
/// - A weak reference holds the object's side table, whose first word points
///   back at the object: that word is not followed, or every object with a
///   weak reference from a root would count as reachable. A block is a side
///   table when the object its first word points to names it as its side
///   table in its reference-count word.
struct ConservativeMark {
  let heap: MallocHeap
  let memory: ProcessMemory
  /// Whether each block is reached.
  private(set) var marked: [Bool]
  /// The block that first reached each block, or -1 (a root, or unreached).
  private(set) var parent: [Int32]
  /// For blocks reached straight from a root: the root word's address.
  private(set) var rootWord: [Int: UInt] = [:]
  /// Bytes of roots scanned.
  private(set) var rootBytes = 0
  private var queue: [Int32] = []
  /// Small blocks whose first word points at another block's start: maybe
  /// side tables, decided in batches (block, target).
  private var maybeSideTables: [(block: Int, target: Int)] = []
  /// Small blocks checked and found not to be side tables.
  private var notSideTables = Set<Int>()

  /// How much of a Swift class instance's block is the instance.
  let extents: InstanceExtents

  /// Each block's start and size, read once from the heap's tables.
  private let starts: [UInt]
  private let sizes: [UInt32]

  init(heap: MallocHeap, memory: ProcessMemory, extents: InstanceExtents) {
    self.heap = heap
    self.memory = memory
    self.extents = extents
    var starts = [UInt](repeating: 0, count: heap.count)
    var sizes = [UInt32](repeating: 0, count: heap.count)
    for index in 0..<heap.count {
      let block = heap[index]
      starts[index] = block.address
      sizes[index] = UInt32(clamping: block.size)
    }
    self.starts = starts
    self.sizes = sizes
    marked = Array(repeating: false, count: heap.count)
    parent = Array(repeating: -1, count: heap.count)
  }

  /// Bytes the mark's own tables take.
  var tableBytes: Int {
    marked.capacity + parent.capacity * 4 + queue.capacity * 4 + starts.capacity * 8 + sizes.capacity * 4
      + extents.byteCount + copyBytes
  }

  // MARK: Roots

  /// Scans the words of `range` as roots.
  mutating func scanRoot(_ range: Range<UInt>) {
    let chunk = 1 << 20
    let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: chunk, alignment: 16)
    defer { buffer.deallocate() }
    var address = (range.lowerBound + 7) & ~7
    while address < range.upperBound {
      let want = Int(min(UInt(chunk), range.upperBound - address))
      let copied = memory.read(address, into: UnsafeMutableRawBufferPointer(rebasing: buffer[..<want]))
      guard copied >= 8 else {
        address = (address + 4096) & ~4095  // an unreadable page: skip it
        continue
      }
      rootBytes += copied
      let words = copied / 8
      for index in 0..<words {
        let word = buffer.load(fromByteOffset: index * 8, as: UInt.self)
        reach(word, from: -1, rootAddress: address + UInt(index * 8))
      }
      address += UInt(words * 8)
    }
  }

  /// Scans `words` (registers) as roots; `address` names them in paths.
  mutating func scanRootWords(_ words: [UInt]) {
    rootBytes += words.count * 8
    for word in words { reach(word, from: -1, rootAddress: 0) }
  }

  /// Marks blocks that are roots themselves (dynamic TLS blocks).
  mutating func markRootBlocks(_ blocks: [Int]) {
    for index in blocks where !marked[index] {
      marked[index] = true
      rootWord[index] = 0
      queue.append(Int32(index))
    }
  }

  // MARK: Blocks

  @inline(__always)
  private mutating func reach(_ word: UInt, from block: Int32, rootAddress: UInt) {
    guard word >= 0x1_0000 else { return }
    let address = LeakGraphBuilder.normalised(word)
    guard let index = heap.index(containing: address), !marked[index] else { return }
    marked[index] = true
    parent[index] = block
    if block < 0 { rootWord[index] = rootAddress }
    queue.append(Int32(index))
  }

  /// Scans every reached block until nothing new is reached.
  ///
  /// The heaps are copied first, each in a few large reads (one system call
  /// per block would cost more than the scan: about 0.4 µs of kernel time
  /// per region read); the blocks are then scanned in the copy.
  mutating func drain() {
    let copy = HeapCopy(heap: heap, memory: memory)
    copyBytes = copy.byteCount
    while true {
      while let next = queue.popLast() {
        let block = Int(next)
        let start = starts[block]
        let size = Int(sizes[block])
        guard let bytes = copy.bytes(at: start, count: size) else {
          // Not in a copied heap (it could not be read): read it alone.
          let alone = memory.bytes(at: start, count: size)
          alone.withUnsafeBytes { scan(block: block, bytes: $0.baseAddress!, count: alone.count) }
          continue
        }
        scan(block: block, bytes: bytes, count: size)
      }
      guard resolveSideTables() else { return }
    }
  }

  /// Bytes of the local copy of the heaps.
  private(set) var copyBytes = 0

  private mutating func scan(block: Int, bytes: UnsafeRawPointer, count: Int) {
    var words = count / 8
    guard words > 0 else { return }
    // A small block pointing at another block's start may be that block's
    // side table: it is scanned only once known not to be one (a side table
    // holds no strong reference, and its malloc slack may hold stale words).
    if count <= Self.largestSideTable, !notSideTables.contains(block) {
      let word = bytes.load(as: UInt.self)
      if let target = heap.index(containing: word), starts[target] == word {
        maybeSideTables.append((block, target))
        return
      }
    }
    // A C string is text, and what follows it malloc's slack; so is the word
    // after a counted array.
    if let text = InstanceExtents.cStringExtent(bytes, count: count)
      ?? InstanceExtents.countedArrayExtent(bytes, count: count)
    {
      words = min(words, text / 8)
    }
    // A class instance ends where its metadata says: the rest is malloc's slack.
    if words >= 2,
      let limit = extents.scanLimit(metadata: bytes.load(as: UInt.self), bytes: bytes, count: count)
    {
      words = min(words, (limit + 7) / 8)
    }
    for index in 0..<words {
      reach(bytes.load(fromByteOffset: index * 8, as: UInt.self), from: Int32(block), rootAddress: 0)
    }
  }

  /// The usable size of a side table's malloc block (32 bytes asked for, 40 usable), with room.
  static let largestSideTable = 48

  /// Scans the possible side tables that are not side tables; returns
  /// whether there is anything to scan.
  private mutating func resolveSideTables() -> Bool {
    guard !maybeSideTables.isEmpty else { return false }
    let pending = maybeSideTables
    maybeSideTables = []
    let refCounts = memory.words(at: pending.map { starts[$0.target] + 8 })
    for (candidate, word) in zip(pending, refCounts) {
      let table = word.flatMap { LeakGraphBuilder.sideTable(refCounts: $0) }
      if table == starts[candidate.block] { continue }  // a side table: its object is held weakly
      notSideTables.insert(candidate.block)
      queue.append(Int32(candidate.block))
    }
    return !queue.isEmpty
  }
}
