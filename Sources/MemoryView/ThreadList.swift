import CMemoryView

#if canImport(Glibc)
  import Glibc
#endif

/// Register values of one stopped thread, handed in by whoever stopped it
/// (ptrace's `PTRACE_GETREGS`): every register is a root word.
///
/// ```swift
/// let registers = ThreadRegisters(
///   threadID: tid, stackPointer: regs.rsp, threadPointer: regs.fs_base,
///   values: [("rax", regs.rax), ("rbx", regs.rbx)])
/// ```
public struct ThreadRegisters: Sendable, Hashable {
  public var threadID: pid_t
  public var stackPointer: UInt
  /// The thread pointer (`fs_base` on x86_64), 0 if unknown.
  public var threadPointer: UInt
  /// Every general register by name.
  public var values: [RegisterValue]

  public init(threadID: pid_t, stackPointer: UInt, threadPointer: UInt, values: [(String, UInt)]) {
    self.threadID = threadID
    self.stackPointer = stackPointer
    self.threadPointer = threadPointer
    self.values = values.map { RegisterValue(name: $0.0, value: $0.1) }
  }
}

/// One register's value.
public struct RegisterValue: Sendable, Hashable {
  public var name: String
  public var value: UInt
}

/// A thread of a process: its stack and where its thread-local storage is.
public struct ThreadInfo: Sendable, Hashable {
  /// The kernel's thread id.
  public var id: pid_t
  /// The thread's name (`/proc/PID/task/TID/comm`).
  public var name: String
  /// Whether this is the process's main thread.
  public var isMain: Bool
  /// Whether this is the thread that takes the snapshot (our own process only).
  public var isCallingThread: Bool
  /// The lowest live stack address: from the registers, from
  /// `/proc/PID/task/TID/syscall` for a thread blocked in a system call, or
  /// the caller's own frame. Nil for a thread running user code: then its
  /// whole stack mapping is scanned, dead frames included.
  public var stackPointer: UInt?
  /// The mapping that holds the stack.
  public var stackMapping: Range<UInt>?
  /// The thread pointer: glibc's thread control block, just above the
  /// thread's static thread-local storage.
  public var threadPointer: UInt?
  /// The registers, when the thread was stopped by the caller.
  public var registers: [RegisterValue]

  /// The stack words to scan: from the stack pointer (less the 128-byte red
  /// zone) up to the thread's TLS, or the whole stack mapping.
  public var liveStack: Range<UInt>? {
    guard let mapping = stackMapping else { return nil }
    var low = mapping.lowerBound
    if let stackPointer, mapping.contains(stackPointer) {
      // The 128-byte red zone below a stopped thread's stack pointer may hold
      // live values; the calling thread's frames below its own marker are the scan's.
      let redZone: UInt = isCallingThread ? 0 : 128
      low = max(mapping.lowerBound, (stackPointer &- redZone) & ~7)
    }
    var high = mapping.upperBound
    if let threadPointer, mapping.contains(threadPointer) { high = min(high, threadPointer) }
    return low < high ? low..<high : nil
  }
}

/// The threads of a process.
public struct ThreadList: Sendable {
  public var threads: [ThreadInfo]

  /// Lists the threads of process `pid` from `/proc/PID/task`.
  ///
  /// - Parameters:
  ///   - registers: register values of threads the caller stopped (ptrace).
  ///   - callerStackPointer: in our own process, an address in the frame of
  ///     the function that asked: the calling thread's stack below it (the
  ///     scan's own frames) is not scanned.
  public init(
    pid: pid_t, map: MemoryMap, memory: ProcessMemory, registers: [ThreadRegisters] = [],
    callerStackPointer: UInt? = nil
  ) {
    let isSelf = pid == getpid()
    let callingThread = isSelf ? mv_currentThreadID() : 0
    let byThread = Dictionary(registers.map { ($0.threadID, $0) }, uniquingKeysWith: { first, _ in first })
    var threads: [ThreadInfo] = []
    let ids = (SmallFile.directory("/proc/\(pid)/task") ?? []).compactMap { pid_t($0) }.sorted()
    for id in ids {
      var thread = ThreadInfo(
        id: id, name: Self.name(pid: pid, thread: id), isMain: id == pid,
        isCallingThread: id == callingThread,
        stackPointer: nil, stackMapping: nil, threadPointer: nil, registers: [])
      if let given = byThread[id] {
        thread.stackPointer = given.stackPointer
        thread.threadPointer = given.threadPointer == 0 ? nil : given.threadPointer
        thread.registers = given.values
      } else if thread.isCallingThread {
        thread.stackPointer = callerStackPointer ?? mv_currentStackPointer()
        thread.threadPointer = mv_currentThreadPointer()
      } else {
        thread.stackPointer = Self.blockedStackPointer(pid: pid, thread: id)
      }
      if isSelf, thread.isMain, thread.threadPointer == nil {
        let main = mv_mainThreadPointer()
        thread.threadPointer = main == 0 ? nil : main
      }
      thread.stackMapping = Self.stackMapping(of: thread, map: map)
      if thread.threadPointer == nil, !thread.isMain, let mapping = thread.stackMapping {
        thread.threadPointer = Self.findThreadPointer(in: mapping, memory: memory)
      }
      threads.append(thread)
    }
    // A thread running user code has no stack pointer to read: find its
    // stack by the TCB glibc keeps at the top, whose `tid` field names it.
    if threads.contains(where: { $0.stackMapping == nil }) {
      let stacks = Self.threadStacks(map: map, memory: memory)
      for index in threads.indices where threads[index].stackMapping == nil {
        guard let found = stacks[threads[index].id] else { continue }
        threads[index].stackMapping = found.mapping
        threads[index].threadPointer = threads[index].threadPointer ?? found.threadPointer
      }
    }
    self.threads = threads
  }

  /// glibc 2.36's `offsetof(struct pthread, tid)` (measured with gdb).
  static let tidOffset: UInt = 0x2D0

  /// Anonymous writable mappings with a thread control block at the top, by
  /// the thread id the TCB records (0 for a thread that exited: glibc keeps
  /// such stacks for reuse).
  static func threadStacks(map: MemoryMap, memory: ProcessMemory) -> [pid_t: (
    mapping: Range<UInt>, threadPointer: UInt
  )] {
    var stacks: [pid_t: (mapping: Range<UInt>, threadPointer: UInt)] = [:]
    for region in map.regions where region.isAnonymous && region.isReadable && region.isWritable {
      guard let pointer = findThreadPointer(in: region.range, memory: memory),
        let word = memory.word(at: pointer + tidOffset)
      else { continue }
      stacks[pid_t(truncatingIfNeeded: word & 0xFFFF_FFFF)] = (region.range, pointer)
    }
    return stacks
  }

  /// The thread whose stack mapping contains `address`.
  public func thread(withStackAt address: UInt) -> ThreadInfo? {
    threads.first { $0.stackMapping?.contains(address) == true }
  }

  private static func name(pid: pid_t, thread: pid_t) -> String {
    var name = SmallFile.text("/proc/\(pid)/task/\(thread)/comm") ?? ""
    while name.last == "\n" { name.removeLast() }
    return name
  }

  /// The stack pointer of a thread blocked in a system call: the second to
  /// last field of `/proc/PID/task/TID/syscall` ("running" otherwise).
  static func blockedStackPointer(pid: pid_t, thread: pid_t) -> UInt? {
    // A thread running user code may block a moment later (a worker's spin
    // before it sleeps): a few tries.
    for _ in 0..<8 {
      if let pointer = stackPointerInSystemCall(pid: pid, thread: thread) { return pointer }
      sched_yield()
    }
    return nil
  }

  private static func stackPointerInSystemCall(pid: pid_t, thread: pid_t) -> UInt? {
    guard let text = SmallFile.text("/proc/\(pid)/task/\(thread)/syscall") else { return nil }
    let fields = text.split(whereSeparator: { $0 == " " || $0 == "\n" })
    guard fields.count >= 3, fields[0] != "running", !fields[0].hasPrefix("-") else { return nil }
    let field = fields[fields.count - 2]
    guard field.hasPrefix("0x") else { return nil }
    return UInt(field.dropFirst(2), radix: 16)
  }

  /// The mapping holding the thread's stack: the one that contains its stack
  /// pointer, `[stack]` for the main thread, else the one that holds its TCB
  /// (glibc puts a thread's TCB at the top of the stack it allocates).
  private static func stackMapping(of thread: ThreadInfo, map: MemoryMap) -> Range<UInt>? {
    if let stackPointer = thread.stackPointer, let region = map.region(containing: stackPointer) {
      return region.range
    }
    if thread.isMain, let stack = map.regions.first(where: { $0.path == "[stack]" }) { return stack.range }
    if let threadPointer = thread.threadPointer, let region = map.region(containing: threadPointer),
      region.isAnonymous
    {
      return region.range
    }
    return nil
  }

  /// glibc's thread control block near the top of a thread's stack mapping:
  /// its first word (`tcb`) and third word (`self`) point at itself.
  static func findThreadPointer(in mapping: Range<UInt>, memory: ProcessMemory) -> UInt? {
    let span = min(UInt(16384), UInt(mapping.count))
    let start = mapping.upperBound - span
    let bytes = memory.bytes(at: start, count: Int(span))
    guard bytes.count == Int(span) else { return nil }
    return bytes.withUnsafeBytes { raw -> UInt? in
      var offset = Int(span) - 64
      while offset >= 0 {
        let address = start + UInt(offset)
        if raw.load(fromByteOffset: offset, as: UInt.self) == address,
          raw.load(fromByteOffset: offset + 16, as: UInt.self) == address
        {
          return address
        }
        offset -= 64
      }
      return nil
    }
  }
}
