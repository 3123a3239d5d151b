/// How many bytes of a Swift class instance's malloc block are the instance.
///
/// malloc hands out a little more than was asked (up to 23 bytes here), and
/// that slack keeps whatever an earlier block left there: stale pointers. A
/// scan of the whole block would count them as references (measured: a
/// 56-byte `WritableKeyPath` whose slack pointed at a leaked screen's view
/// kept a whole retain cycle "reachable"). memcheck knows each block's
/// requested size; we know a class instance's size from its metadata, except
/// for classes that allocate elements after their fields (arrays, hashed
/// collections, strings, `ManagedBuffer`) and for Foundation's classes,
/// whose instances CoreFoundation may create larger than the class (a CF set
/// or run loop behind `_NSCFSet` or `__NSCFType`): those are scanned whole.
/// A key path's tail buffer says its own size (a 32-bit header whose low 24
/// bits count the bytes after it), so key paths — long-lived, cached in
/// globals — are cut exactly too; a native string's storage holds no
/// reference unless it has breadcrumbs (the top bit of its capacity word):
/// measured, a string's slack kept a leaked screen's button reachable. A heap
/// Block is as long as its descriptor says (`Block_copy` allocates exactly
/// that): measured, a dispatch work item's Block's slack gave a test's
/// object a false path from libdispatch's timer heap.
///
/// Only metadata inside a loaded image or outside the malloc heap is looked
/// at (a block's first word elsewhere is not class metadata worth the reads);
/// answers are cached per metadata address. Used by both conservative scans:
/// `leaklab leaks`' mark (ProcessLeaks) and ``PointerGraph`` (the root paths).
///
/// ```swift
/// let extents = InstanceExtents(memory: snapshot.memory, images: snapshot.images,
///   heapRanges: snapshot.heap.heapRanges)
/// let limit = extents.scanLimit(metadata: firstWord, bytes: bytes, count: size)  // nil: all of it
/// ```
public final class InstanceExtents {
  let memory: ProcessMemory
  let images: ImageList
  let heapRanges: [Range<UInt>]
  private var cache: [UInt: Extent] = [:]
  /// The last answer: blocks of one type often come one after another.
  private var lastMetadata: UInt = 0
  private var lastExtent = Extent.whole

  /// How far a class's instances go.
  enum Extent: Equatable {
    /// The whole malloc block.
    case whole
    /// The instance size from the metadata.
    case fixed(Int)
    /// A key path: its buffer's header sits at this offset.
    case keyPath(tailStart: Int)
    /// A native string's storage: code units, and a pointer to its
    /// breadcrumbs only when its capacity word's top bit says so.
    case stringStorage
    /// A heap Block (`_NSConcreteMallocBlock`): `Block_copy` allocates
    /// exactly its descriptor's size, the rest is malloc's slack.
    case block
  }

  /// Per Block descriptor: the size it gives (0: unreadable or implausible).
  private var blockSizes: [UInt: Int] = [:]
  /// The first word of every heap Block: `_NSConcreteMallocBlock` in the
  /// Blocks runtime (nil when it is not loaded).
  private lazy var mallocBlockClass: UInt? = images.images.first { $0.name.hasPrefix("libBlocksRuntime") }?
    .address(ofSymbol: "_NSConcreteMallocBlock", kinds: .object)

  /// Classes whose instances carry tail-allocated elements (their own names
  /// or an ancestor's, as the class context descriptor spells them).
  static let tailAllocating: Set<String> = [
    "__ContiguousArrayStorageBase", "_ContiguousArrayStorage", "__RawDictionaryStorage", "__RawSetStorage",
    "_DictionaryStorage", "_SetStorage", "__StringStorage", "__SharedStringStorage", "ManagedBuffer",
    "__EmptyArrayStorage", "_SwiftStringStorage",
  ]

  /// Extents of the blocks of the process `memory` reads, whose malloc heaps span `heapRanges`.
  public init(memory: ProcessMemory, images: ImageList, heapRanges: [Range<UInt>]) {
    self.memory = memory
    self.images = images
    self.heapRanges = heapRanges
  }

  /// Bytes to scan of a block whose first word is `metadata` (`count` bytes
  /// read into `bytes`), or nil for all of it.
  public func scanLimit(metadata: UInt, bytes: UnsafeRawPointer, count: Int) -> Int? {
    guard metadata >= 0x1_0000, metadata & 7 == 0 else { return nil }
    let extent: Extent
    if metadata == lastMetadata {
      extent = lastExtent
    } else if let cached = cache[metadata] {
      extent = cached
    } else {
      extent = compute(metadata)
      cache[metadata] = extent
    }
    lastMetadata = metadata
    lastExtent = extent
    switch extent {
    case .whole: return nil
    case .fixed(let size): return size
    case .stringStorage:
      guard count >= 32 else { return nil }
      let capacityAndFlags = bytes.loadUnaligned(fromByteOffset: 16, as: UInt64.self)
      return capacityAndFlags >> 63 == 0 ? 32 : nil
    case .block:
      guard count >= 32 else { return nil }
      let size = blockSize(descriptor: UInt(bytes.loadUnaligned(fromByteOffset: 24, as: UInt64.self)))
      return size >= 32 && size <= count ? size : nil
    case .keyPath(let tailStart):
      guard tailStart + 4 <= count else { return nil }
      let header = bytes.loadUnaligned(fromByteOffset: tailStart, as: UInt32.self)
      return tailStart + 8 + Int(header & 0x00FF_FFFF)
    }
  }

  /// Bytes of the cache.
  public var byteCount: Int { cache.capacity * 16 }

  private func compute(_ metadata: UInt) -> Extent {
    let image = images.image(containing: metadata)
    guard image != nil || !heapRanges.contains(where: { $0.contains(metadata) }) else { return .whole }
    if metadata == mallocBlockClass { return .block }
    if let name = image?.name, name.hasPrefix("libFoundation") { return .whole }
    guard memory.word(at: metadata) == 0, let size = memory.uint32(at: metadata + 24), size >= 16,
      size < 1 << 20
    else { return .whole }
    // Walk the class and its ancestors: none may allocate tail elements.
    var current = metadata
    for _ in 0..<32 where current != 0 {
      guard let descriptor = memory.word(at: current + 40), descriptor & 3 == 0, descriptor >= 0x1_0000,
        let flags = memory.uint32(at: descriptor), flags & 0x1F == 16,
        let name = descriptorName(descriptor)
      else { return .whole }
      if name == "AnyKeyPath" { return .keyPath(tailStart: (Int(size) + 3) & ~3) }
      if name == "__StringStorage" { return .stringStorage }
      if Self.tailAllocating.contains(name) { return .whole }
      current = memory.word(at: current + 8) ?? 0
    }
    return .fixed(Int(size))
  }

  /// The size a Block descriptor at `descriptor` gives (its second word), once per descriptor.
  private func blockSize(descriptor: UInt) -> Int {
    if let known = blockSizes[descriptor] { return known }
    let size = memory.word(at: descriptor + 8).map { $0 < 1 << 20 ? Int($0) : 0 } ?? 0
    blockSizes[descriptor] = size
    return size
  }

  /// The bytes of a block that hold a C string (`strdup`): at least eight
  /// printable characters from its start, a NUL, and a usable size that
  /// malloc gives to exactly that many bytes. The rest is malloc's slack:
  /// measured, a queue label's slack held a stale pointer to a leaked view.
  /// A struct that begins with an inline name of eight or more characters
  /// and fits the same size would be cut short too (no such case found).
  public static func cStringExtent(_ bytes: UnsafeRawPointer, count: Int) -> Int? {
    guard count >= 16 else { return nil }
    var end = 0
    while end < count {
      let byte = bytes.load(fromByteOffset: end, as: UInt8.self)
      if byte == 0 { break }
      guard (0x20...0x7E).contains(byte) || byte == 0x09 || byte >= 0x80 else { return nil }
      end += 1
    }
    guard end >= 8, end < count, usableSize(requested: end + 1) == count else { return nil }
    return end + 1
  }

  /// The bytes of a block that holds a counted array: a 32-bit count `n`,
  /// then `n` words, in a block one word longer than that (the Swift
  /// runtime's concurrent hash maps store their elements so, with their
  /// capacity first). The last word is malloc's slack: measured, a metadata
  /// cache's element array kept a leaked object reachable through it.
  public static func countedArrayExtent(_ bytes: UnsafeRawPointer, count: Int) -> Int? {
    guard count >= 24, count % 16 == 8 else { return nil }
    let elements = Int(bytes.loadUnaligned(as: UInt32.self))
    guard elements >= 1, 8 + elements * 8 == count - 8 else { return nil }
    return count - 8
  }

  /// The usable size glibc's malloc gives a request of `requested` bytes on x86_64.
  public static func usableSize(requested: Int) -> Int {
    max(32, (requested + 8 + 15) & ~15) - 8
  }

  /// The name in a type context descriptor (a relative pointer at offset 8).
  private func descriptorName(_ descriptor: UInt) -> String? {
    guard let relative = memory.uint32(at: descriptor + 8) else { return nil }
    let address = UInt(bitPattern: Int(bitPattern: descriptor + 8) + Int(Int32(bitPattern: relative)))
    return memory.string(at: address, maximumLength: 256)
  }
}
