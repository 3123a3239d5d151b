#if canImport(Glibc)
  import Glibc
#endif

/// What holds memory without being held itself: where a conservative scan
/// starts (forwards) or stops (backwards).
public enum RootKind: Sendable, Hashable, CustomStringConvertible {
  /// An image's globals (its writable load segments).
  case global(image: String)
  /// A thread's live stack.
  case stack(thread: pid_t, name: String)
  /// The whole stack mapping of a thread that was running user code when
  /// the snapshot was taken (its stack pointer unknown): dead frames are
  /// scanned too, so this root is the least sure.
  case unboundedStack(thread: pid_t, name: String)
  /// The stack of the thread that took the snapshot, above its own frames:
  /// the caller's local variables. The weakest kind of root.
  case callerStack(thread: pid_t)
  /// A thread's thread-local storage: static TLS and its TCB, or a dynamic
  /// TLS block found through its DTV.
  case threadLocal(thread: pid_t, name: String)
  /// A register of a stopped thread.
  case register(thread: pid_t, name: String)
  /// Writable memory that belongs to no image, heap or thread (an
  /// allocator's own mapping, the dynamic loader's, a file mapped writable).
  case mapping(path: String)
  /// A block the caller named as a root.
  case registered(name: String)

  public var description: String {
    switch self {
    case .global(let image): "global in \(image)"
    case .stack(let thread, let name): "stack of thread \(thread)\(name.isEmpty ? "" : " (\(name))")"
    case .unboundedStack(let thread, let name):
      "stack of running thread \(thread)\(name.isEmpty ? "" : " (\(name))"), dead frames included"
    case .callerStack: "a local variable of the calling thread"
    case .threadLocal(let thread, let name):
      "thread-local storage of thread \(thread)\(name.isEmpty ? "" : " (\(name))")"
    case .register(let thread, let name): "register \(name) of thread \(thread)"
    case .mapping(let path): path.isEmpty ? "anonymous mapping" : "mapping of \(path)"
    case .registered(let name): name
    }
  }

  /// What a path from this kind of root costs on top of its length, when
  /// paths are compared: nothing for a global or a registered root; two
  /// steps for a register, four for a stack or thread-local storage, five
  /// for an anonymous mapping, eight for a running thread's whole stack:
  /// where stale words are likelier (a thread's dead slots, an allocator's
  /// per-thread caches of freed objects).
  public var penalty: Int {
    switch self {
    case .registered, .global: 0
    case .register: 2
    case .threadLocal, .stack: 4
    case .mapping: 5
    case .unboundedStack: 8
    case .callerStack: 1_000
    }
  }

  /// Whether the root is the calling thread's own stack (``callerStack(thread:)``).
  public var isCallerStack: Bool {
    if case .callerStack = self { return true }
    return false
  }

  /// Lower ranks are better answers to "what holds it": a named global
  /// before thread-local storage, another thread's stack, a register, an
  /// anonymous mapping; the caller's own locals last.
  public var rank: Int {
    switch self {
    case .registered: 0
    case .global: 1
    case .threadLocal: 2
    case .stack: 3
    case .register: 4
    case .mapping: 5
    case .unboundedStack: 6
    case .callerStack: 9
    }
  }
}

/// A range of memory that is a root.
public struct RootRange: Sendable, Hashable {
  public var kind: RootKind
  public var range: Range<UInt>

  public init(kind: RootKind, range: Range<UInt>) {
    self.kind = kind
    self.range = range
  }
}

/// A single root word: a register's value.
public struct RootWord: Sendable, Hashable {
  public var kind: RootKind
  public var value: UInt
}

/// The roots of a process: image globals, thread stacks and registers,
/// thread-local storage, other writable mappings.
public struct RootSet: Sendable {
  public var ranges: [RootRange] = []
  public var words: [RootWord] = []
  /// Blocks that are roots themselves (dynamic TLS blocks, registered roots), by block position.
  public var blocks: [(index: Int, kind: RootKind)] = []
  /// The stack mappings of threads that exited, which glibc keeps for reuse:
  /// only their TLS and thread control block are roots.
  public var cachedStacks: [Range<UInt>] = []

  /// Collects the roots of a process.
  ///
  /// - Parameter staticTLSSize: bytes of static TLS below each thread
  ///   pointer; by default the sum of the images' TLS segments, aligned.
  public init(
    map: MemoryMap, images: ImageList, threads: ThreadList, heap: MallocHeap, memory: ProcessMemory,
    staticTLSSize: UInt? = nil
  ) {
    let tlsSize = staticTLSSize ?? Self.staticTLSSize(images: images)
    var covered: [Range<UInt>] = heap.heapRanges + ScratchMappings.ranges
    // The main arena's `malloc_state` is no root: its bins and top point at
    // chunk headers, each the last word of the block before the chunk (a
    // live block's, read as a word into it: a false root of whatever that
    // word held; measured in the live app, 3 snapshots in 60 under load).
    let allocatorState = heap.mainArenaState.map { [$0] } ?? []
    for image in images.images {
      for range in image.writableRanges {
        for piece in Self.subtract(allocatorState, from: range) {
          ranges.append(RootRange(kind: .global(image: image.name), range: piece))
        }
        covered.append((range.lowerBound & ~4095)..<((range.upperBound + 4095) & ~4095))
      }
    }
    for thread in threads.threads {
      addThread(thread, staticTLSSize: tlsSize, map: map, heap: heap, memory: memory, covered: &covered)
    }
    for region in map.regions where region.isReadable && region.isWritable {
      guard region.isAnonymous || region.isFile || region.path.hasPrefix("[anon") else { continue }
      if region.isAnonymous, !threads.threads.contains(where: { $0.stackMapping == region.range }),
        let pointer = ThreadList.findThreadPointer(in: region.range, memory: memory),
        pointer + Self.threadControlBlockSize >= region.end - 4096
      {
        // A thread that exited: glibc keeps its stack for the next thread,
        // with its thread control block, static TLS and DTV (whose blocks it
        // keeps too). Those are roots; the dead frames below are not.
        cachedStacks.append(region.range)
        addExitedThread(
          threadPointer: pointer, mapping: region.range, staticTLSSize: tlsSize, heap: heap, memory: memory)
        continue
      }
      for piece in Self.subtract(covered, from: region.range) {
        ranges.append(RootRange(kind: .mapping(path: region.path), range: piece))
      }
    }
  }

  private mutating func addThread(
    _ thread: ThreadInfo, staticTLSSize: UInt, map: MemoryMap, heap: MallocHeap, memory: ProcessMemory,
    covered: inout [Range<UInt>]
  ) {
    if let mapping = thread.stackMapping { covered.append(mapping) }
    for register in thread.registers {
      words.append(RootWord(kind: .register(thread: thread.id, name: register.name), value: register.value))
    }
    let tlsKind = RootKind.threadLocal(thread: thread.id, name: thread.name)
    var staticTLS: Range<UInt>? = nil
    if let pointer = thread.threadPointer, pointer > staticTLSSize,
      let mapping = map.region(containing: pointer)
    {
      // Clipped to the mapping that holds the TCB: never into a neighbouring heap.
      let area =
        max(pointer - staticTLSSize, mapping.start)..<min(pointer + Self.threadControlBlockSize, mapping.end)
      staticTLS = area
      ranges.append(RootRange(kind: tlsKind, range: area))
      covered.append(area)
      // Dynamic TLS: blocks the DTV points at outside the static area.
      addDynamicTLS(threadPointer: pointer, staticTLS: staticTLS, kind: tlsKind, heap: heap, memory: memory)
    }
    if let stack = thread.liveStack {
      let kind: RootKind =
        thread.isCallingThread
        ? .callerStack(thread: thread.id) : .stack(thread: thread.id, name: thread.name)
      for piece in Self.subtract(staticTLS.map { [$0] } ?? [], from: stack) {
        ranges.append(RootRange(kind: kind, range: piece))
      }
    }
  }

  /// The thread control block, static TLS and dynamic TLS of a thread that
  /// exited, whose stack glibc keeps for reuse: they still hold the thread's
  /// DTV and TLS blocks, which memcheck counts as reachable too.
  private mutating func addExitedThread(
    threadPointer pointer: UInt, mapping: Range<UInt>, staticTLSSize: UInt, heap: MallocHeap,
    memory: ProcessMemory
  ) {
    let kind = RootKind.threadLocal(thread: 0, name: "exited thread")
    let low = max(pointer &- staticTLSSize, mapping.lowerBound)
    let area = low..<min(pointer + Self.threadControlBlockSize, mapping.upperBound)
    ranges.append(RootRange(kind: kind, range: area))
    addDynamicTLS(threadPointer: pointer, staticTLS: area, kind: kind, heap: heap, memory: memory)
  }

  /// The blocks a thread's DTV points at outside its static TLS area.
  private mutating func addDynamicTLS(
    threadPointer pointer: UInt, staticTLS: Range<UInt>?, kind: RootKind, heap: MallocHeap,
    memory: ProcessMemory
  ) {
    guard let vector = memory.word(at: pointer + 8), let length = memory.word(at: vector &- 16), length < 4096
    else { return }
    for slot in 1...max(1, Int(length)) {
      guard let value = memory.word(at: vector + UInt(slot) * 16), value != 0, value != UInt.max,
        !(staticTLS?.contains(value) ?? false), let index = heap.index(containing: value)
      else { continue }
      blocks.append((index, kind))
    }
  }

  /// Adds a block as a registered root.
  public mutating func register(block index: Int, name: String) {
    blocks.append((index, .registered(name: name)))
  }

  /// `sizeof(struct pthread)` in glibc 2.36 (measured with gdb): the TCB
  /// that starts at the thread pointer.
  public static let threadControlBlockSize: UInt = 2368

  /// The static TLS below each thread pointer, for another process: every
  /// image's TLS segment, aligned, plus room for glibc's surplus (modules
  /// loaded later). Scanning a little more than the TLS reads the top
  /// frames of the thread's stack, which are roots as well.
  static func staticTLSSize(images: ImageList) -> UInt {
    var total: UInt = 0
    for image in images.images where image.threadLocalSize > 0 {
      let alignment = max(image.threadLocalAlignment, 1)
      total = (total + image.threadLocalSize + alignment - 1) / alignment * alignment
    }
    return total + 4096
  }

  /// `range` without the parts in `holes`.
  static func subtract(_ holes: [Range<UInt>], from range: Range<UInt>) -> [Range<UInt>] {
    var pieces = [range]
    for hole in holes where hole.overlaps(range) {
      pieces = pieces.flatMap { piece -> [Range<UInt>] in
        guard hole.overlaps(piece) else { return [piece] }
        var result: [Range<UInt>] = []
        if piece.lowerBound < hole.lowerBound { result.append(piece.lowerBound..<hole.lowerBound) }
        if hole.upperBound < piece.upperBound { result.append(hole.upperBound..<piece.upperBound) }
        return result
      }
    }
    return pieces
  }
}
