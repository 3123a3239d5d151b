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
  public init(
    pid: pid_t = getpid(), registers: [ThreadRegisters] = [], callerStackPointer: UInt? = nil
  ) throws(Failure) {
    let marker = callerStackPointer ?? mv_currentStackPointer()
    self.pid = pid
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
    threads = ThreadList(
      pid: pid, map: map, memory: memory, registers: registers,
      callerStackPointer: pid == getpid() ? marker : nil)
    do {
      heap = try MallocHeap(memory: memory, map: map, images: images)
    } catch {
      throw Failure(description: error.description)
    }
    roots = RootSet(
      map: map, images: images, threads: threads, heap: heap, memory: memory,
      staticTLSSize: pid == getpid() ? Self.ownStaticTLSSize() : nil)
    if pid == getpid() {
      for block in Self.currentTaskBlocks(heap: heap, memory: memory) {
        roots.blocks.append((block, .callerStack(thread: mv_currentThreadID())))
      }
    }
  }

  /// The blocks of the Swift task that called (our own process): the task
  /// object and its allocator's slabs, where its async frames keep the
  /// caller's local variables. Like the calling thread's stack, they are the
  /// weakest of roots and never a step on a path.
  static func currentTaskBlocks(heap: MallocHeap, memory: ProcessMemory) -> [Int] {
    let task = mv_currentTask()
    guard task != 0, let taskBlock = heap.index(containing: task) else { return [] }
    var blocks = [taskBlock]
    let slabMetadata = mv_taskSlabMetadata()
    guard slabMetadata != 0 else { return blocks }
    let contents = memory.bytes(at: heap[taskBlock].address, count: Int(min(heap[taskBlock].size, 1 << 16)))
    var slabs: [UInt] = []
    contents.withUnsafeBytes { raw in
      for offset in stride(from: 0, to: raw.count - 7, by: 8) {
        let value = raw.load(fromByteOffset: offset, as: UInt.self)
        // Start or interior pointers: the allocator also points at its last allocation.
        if let block = heap.index(containing: value), memory.word(at: heap[block].address) == slabMetadata {
          slabs.append(heap[block].address)
        }
      }
    }
    // Each slab links to the next at its second word.
    var seen = Set<Int>(blocks)
    while let slab = slabs.popLast() {
      guard let block = heap.index(containing: slab), seen.insert(block).inserted else { continue }
      blocks.append(block)
      if let next = memory.word(at: slab + 8), next != 0, memory.word(at: next) == slabMetadata {
        slabs.append(next)
      }
    }
    return blocks
  }

  /// The metadata word that starts every slab of a Swift task's allocator,
  /// from the concurrency library's debug variable
  /// `_swift_concurrency_debug_asyncTaskSlabMetadata` (nil without one).
  public var taskSlabMetadata: UInt? {
    guard let library = images.images.first(where: { $0.name.hasPrefix("libswift_Concurrency") }),
      let variable = library.address(ofSymbol: "_swift_concurrency_debug_asyncTaskSlabMetadata"),
      let value = memory.word(at: variable), value != 0
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
