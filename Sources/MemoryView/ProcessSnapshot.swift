import CMemoryView

#if canImport(Glibc)
  import Glibc
#endif

/// A read-only view of a process's memory at one moment: its mappings,
/// images, threads, malloc blocks and roots.
///
/// Works for our own process (while other threads keep running: see
/// docs/memory-view.md for what that costs in certainty) and for another
/// process, ideally stopped with ptrace (pass its threads' registers).
///
/// ```swift
/// let snapshot = try ProcessSnapshot()                       // this process
/// let other = try ProcessSnapshot(pid: child, registers: regs) // a stopped child
/// print(other.heap.count, "live blocks")
/// ```
public final class ProcessSnapshot: @unchecked Sendable {
  // @unchecked: every stored property is immutable after `init` except
  // `roots`, which only `registerRoot` changes before a scan.
  public let pid: pid_t
  public let memory: ProcessMemory
  public let map: MemoryMap
  public let images: ImageList
  public let threads: ThreadList
  public let heap: MallocHeap
  /// The roots. Add registered roots with ``registerRoot(block:name:)`` before scanning.
  public private(set) var roots: RootSet

  /// Why a snapshot could not be taken.
  public struct Failure: Error, Sendable, CustomStringConvertible {
    public var description: String
  }

  /// Takes a snapshot of process `pid` (our own by default).
  ///
  /// - Parameters:
  ///   - registers: the registers of threads the caller stopped (ptrace);
  ///     they become roots and give each thread's stack pointer.
  ///   - callerStackPointer: for our own process, the address in the
  ///     caller's frame below which the calling thread's stack belongs to
  ///     the scan (default: where this initializer was called from).
  ///   - keepsSecondWords: whether the heap keeps every block's second word
  ///     (``MallocHeap/secondWord(of:)``): a census needs them, a full heap
  ///     model reads every block anyway.
  public convenience init(
    pid: pid_t = getpid(), registers: [ThreadRegisters] = [], callerStackPointer: UInt? = nil,
    keepsSecondWords: Bool = true
  ) throws(Failure) {
    let marker = callerStackPointer ?? mv_currentStackPointer()
    if pid == getpid(), let reason = Self.ownHeapUnsupportedReason { throw Failure(description: reason) }
    try self.init(
      reading: pid, copy: nil, threads: nil, registers: registers, marker: marker,
      keepsSecondWords: keepsSecondWords)
  }

  /// Takes a snapshot of this process from a frozen copy of it: a child
  /// forked for the purpose, stopped at once, read while this process goes
  /// on. Its memory is all of one instant, where a snapshot of the running
  /// process reads a heap that other threads change under the walk (a
  /// block freed and allocated again between the walk and the read of the
  /// free lists is lost, with every path through it). The threads are this
  /// process's, listed just before the fork; the copy is killed when the
  /// snapshot goes.
  ///
  /// Throws where a copy cannot be made or read (no `fork`, ptrace not
  /// permitted): ``init(pid:registers:callerStackPointer:)`` still works there.
  ///
  /// ```swift
  /// let snapshot = try ProcessSnapshot.ofFrozenCopy()
  /// ```
  public static func ofFrozenCopy(callerStackPointer: UInt? = nil) throws(Failure) -> ProcessSnapshot {
    let marker = callerStackPointer ?? mv_currentStackPointer()
    if let reason = Self.ownHeapUnsupportedReason { throw Failure(description: reason) }
    let ownMap: MemoryMap
    do {
      ownMap = try MemoryMap(pid: getpid())
    } catch {
      throw Failure(description: error.description)
    }
    let threads = ThreadList(pid: getpid(), map: ownMap, memory: .current, callerStackPointer: marker)
    let child = mv_forkFrozenCopy()
    guard child > 0 else {
      throw Failure(description: "cannot fork a copy of this process: \(String(cString: strerror(errno)))")
    }
    let copy = FrozenCopy(pid: child)
    return try ProcessSnapshot(reading: child, copy: copy, threads: threads, registers: [], marker: marker)
  }

  /// Reads process `pid`: our own, another, or (`copy`) a frozen copy of
  /// our own, whose `threads` are ours.
  private init(
    reading pid: pid_t, copy: FrozenCopy?, threads ownThreads: ThreadList?, registers: [ThreadRegisters],
    marker: UInt, keepsSecondWords: Bool = true
  ) throws(Failure) {
    let isOwn = pid == getpid() || copy != nil
    self.pid = pid
    frozenCopy = copy
    memory = ProcessMemory(pid: pid)
    do {
      map = try MemoryMap(pid: pid)
    } catch {
      throw Failure(description: error.description)
    }
    guard memory.word(at: map.regions.first { $0.isReadable }?.start ?? 0) != nil else {
      throw Failure(
        description:
          "cannot read the memory of process \(pid): \(String(cString: strerror(errno))) (ptrace not permitted?)"
      )
    }
    images = ImageList(map: map, memory: memory)
    threads =
      ownThreads
      ?? ThreadList(
        pid: pid, map: map, memory: memory, registers: registers,
        callerStackPointer: pid == getpid() ? marker : nil)
    do {
      heap = try MallocHeap(memory: memory, map: map, images: images, keepsSecondWords: keepsSecondWords)
    } catch {
      throw Failure(description: error.description)
    }
    roots = RootSet(
      map: map, images: images, threads: threads, heap: heap, memory: memory,
      staticTLSSize: isOwn ? Self.ownStaticTLSSize() : nil)
    callerTask = isOwn ? mv_currentTask() : 0
  }

  /// The frozen copy this snapshot reads, if any (killed with the snapshot).
  private let frozenCopy: FrozenCopy?

  /// Whether this snapshot reads a frozen copy of this process (see ``ofFrozenCopy(callerStackPointer:)``).
  public var isFrozenCopy: Bool { frozenCopy != nil }

  /// Whether the process read is this one or a frozen copy of it: its
  /// images, and the metadata in them, are ours at the same addresses.
  public var isOwnProcess: Bool { frozenCopy != nil || pid == getpid() }

  /// In our own process, the Swift task that took the snapshot (0 if none):
  /// its frames, and those of the tasks it is linked with (its parent, its
  /// children, their siblings), hold the caller's own variables.
  public let callerTask: UInt

  /// The metadata word that starts every slab of a Swift task's allocator,
  /// from the concurrency library's debug variable
  /// `_swift_concurrency_debug_asyncTaskSlabMetadata` (nil without one).
  public var taskSlabMetadata: UInt? { concurrencyVariable("_swift_concurrency_debug_asyncTaskSlabMetadata") }

  /// The size of a Swift task's fixed part, where its fragments start, from
  /// `_swift_concurrency_debug_asyncTaskSize` (nil without one).
  public var asyncTaskSize: UInt? { concurrencyVariable("_swift_concurrency_debug_asyncTaskSize") }

  /// The value of one of the concurrency library's debug variables (made for tools).
  private func concurrencyVariable(_ name: String) -> UInt? {
    guard let library = images.images.first(where: { $0.name.hasPrefix("libswift_Concurrency") }),
      let variable = library.address(ofSymbol: name), let value = memory.word(at: variable), value != 0
    else { return nil }
    return value
  }

  /// Makes the block that contains `address` a root named `name`.
  public func registerRoot(block address: UInt, name: String) {
    guard let index = heap.index(containing: address) else { return }
    roots.register(block: index, name: name)
  }

  /// A root word described for a person: the global's symbol and image
  /// (`Foundation.__CFRunLoops in libFoundation.so`), the thread, the register.
  public func describe(rootWordAt address: UInt, kind: RootKind) -> String {
    switch kind {
    case .global(let imageName):
      guard let image = images.image(containing: address) else { return "global in \(imageName)" }
      if let symbol = image.symbol(containing: address, kinds: .object) {
        let offset = address - symbol.address
        let suffix = offset == 0 || symbol.size <= 8 ? "" : " + \(offset)"
        return "global \(symbol.demangled)\(suffix) in \(image.name)"
      }
      return "global at \(hex(address)) in \(image.name)"
    default:
      return kind.description
    }
  }

  /// The bytes of static TLS below this process's thread pointers: the
  /// farthest TLS block below the calling thread's, measured through
  /// `dl_iterate_phdr`.
  static func ownStaticTLSSize() -> UInt {
    var farthest: UInt = 0
    let pointer = mv_currentThreadPointer()
    withUnsafeMutablePointer(to: &farthest) { farthest in
      mv_forEachThreadLocalBlock(
        { context, _, block, _ in
          let farthest = context!.assumingMemoryBound(to: UInt.self)
          let pointer = mv_currentThreadPointer()
          if block != 0, block < pointer, pointer - block < 1 << 24 {
            farthest.pointee = max(farthest.pointee, pointer - block)
          }
        }, farthest)
    }
    _ = pointer
    return (farthest + 63) & ~63
  }
}

/// A stopped child forked by ``ProcessSnapshot/ofFrozenCopy(callerStackPointer:)``;
/// killed and reaped when the last snapshot reading it goes.
private final class FrozenCopy: Sendable {
  let pid: pid_t
  init(pid: pid_t) { self.pid = pid }
  deinit { mv_endFrozenCopy(pid) }
}
