import MemoryView
import RetainGraph

#if canImport(Glibc)
  import Glibc
#endif

/// What a stopped process leaked: its heap's blocks that nothing reachable
/// points to, named and linked.
///
/// The roots are MemoryView's (the images' globals, thread-local storage,
/// memory the program mapped itself, every thread's registers), with each
/// thread's stack cut to what ``StackRoots`` says is live. A conservative
/// mark from them reaches what the program can still use; the rest leaked.
/// Nothing is written to the process.
///
/// ```swift
/// let process = try TracedProcess.launch(path, arguments: [])
/// guard case .atExit = try process.runToExit() else { … }
/// let analysis = try LeakAnalysis(process: process)
/// print(LeakReport(graph: analysis.graph).summary)
/// _ = try process.finish()
/// ```
public struct LeakAnalysis: Sendable {
  /// The leaked blocks, named, and the references among them.
  public var graph: LeakGraph
  /// Instances of the asked-for types that are still reachable, with their paths.
  public var reachable: [ReachableInstance]
  /// What the analysis looked at and what it cost.
  public var figures: AnalysisFigures

  /// Analyses `process`, which must be stopped (held at its exit, or attached).
  ///
  /// - Parameter reachableTypes: type patterns (`*` wildcards) whose
  ///   reachable instances to list with their path from a root.
  public init(process: TracedProcess, reachableTypes: [String] = []) throws(ProcessLeaksError) {
    let clock = ContinuousClock()
    let start = clock.now
    let startCPU = Self.cpuTime()
    var phases: [String: Double] = [:]
    var phaseStart = start
    func phase(_ name: String) {
      let now = clock.now
      phases[name] = Self.milliseconds(now - phaseStart)
      phaseStart = now
    }
    let pid = process.pid
    // MemoryView: the mappings, images, threads, malloc blocks and roots.
    let map: MemoryMap
    do {
      map = try MemoryMap(pid: pid)
    } catch {
      throw .system("cannot read the mappings of process \(pid)", detail: error.description)
    }
    try RuntimeCheck.verify(
      images: ImageList(map: map, memory: ProcessMemory(pid: pid)), executable: Self.executable(pid: pid))
    let snapshot: ProcessSnapshot
    do {
      snapshot = try ProcessSnapshot(pid: pid, registers: process.threads.compactMap(\.memoryViewRegisters))
    } catch {
      throw .system("cannot read process \(pid)", detail: error.description)
    }
    phase("snapshot")
    let (memory, images, heap) = (snapshot.memory, snapshot.images, snapshot.heap)
    let extents = InstanceExtents(memory: memory, images: images, heapRanges: heap.heapRanges)
    var mark = ConservativeMark(heap: heap, memory: memory, extents: extents)
    let stackRoots = StackRoots(map: snapshot.map, images: images)
    let stopped = Dictionary(process.threads.map { ($0.thread, $0) }, uniquingKeysWith: { first, _ in first })
    for range in stackRoots.rootRanges(
      snapshot.roots, threads: snapshot.threads, process: process, stopped: stopped)
    {
      mark.scanRoot(range)
    }
    mark.scanRootWords(snapshot.roots.words.map(\.value))
    mark.markRootBlocks(snapshot.roots.blocks.map(\.index))
    mark.drain()
    phase("mark")

    guard let reflection = RemoteReflection(pid: pid) else {
      throw .system("cannot create a Remote Mirror context", detail: "libswiftRemoteMirror refused")
    }
    for image in images.images { reflection.addImage(path: image.path, loadBias: image.bias) }
    phase("reflection")
    let names = FunctionNames(images: images)
    let leaked = (0..<heap.count).filter { !mark.marked[$0] && !heap[$0].isAllocatorInternal }.map {
      LeakGraphBuilder.Block(address: heap[$0].address, size: Int(heap[$0].size))
    }
    let executable = Self.executable(pid: pid)
    let program = images.images.first { Self.sameFile($0.path, executable) }
    graph = LeakGraphBuilder(
      reflection: reflection, images: images, extents: extents, program: program,
      functionName: names.closureName
    ).build(leaked)
    reachable =
      reachableTypes.isEmpty
      ? []
      : ReachablePaths(
        heap: heap, mark: mark, reflection: reflection, images: images, threads: snapshot.threads,
        map: snapshot.map
      ).instances(matching: reachableTypes)
    phase("naming")
    let elapsed = clock.now - start
    var usage = rusage()
    getrusage(RUSAGE_SELF.rawValue, &usage)
    figures = AnalysisFigures(
      heapBlocks: heap.count, heapBytes: Int(heap.liveBytes), rootBytes: mark.rootBytes,
      milliseconds: Self.milliseconds(elapsed),
      peakMemoryBytes: Int(usage.ru_maxrss) * 1024)
    figures.phases = phases
    figures.cpuMilliseconds = Self.milliseconds(Self.cpuTime() - startCPU)
    figures.markTableBytes = mark.tableBytes
    figures.heapTableBytes = heap.tableBytes
    figures.heapWalkNotes = heap.report.notes
    figures.arenasFound = heap.report.arenasFound
    figures.heapsWalked = heap.report.mainHeaps + heap.report.arenaHeaps
  }

  /// The CPU time this process has used (user and system).
  static func cpuTime() -> Duration {
    var usage = rusage()
    getrusage(RUSAGE_SELF.rawValue, &usage)
    let user = Duration.seconds(usage.ru_utime.tv_sec) + .microseconds(usage.ru_utime.tv_usec)
    return user + .seconds(usage.ru_stime.tv_sec) + .microseconds(usage.ru_stime.tv_usec)
  }

  static func milliseconds(_ duration: Duration) -> Double {
    Double(duration.components.seconds) * 1000 + Double(duration.components.attoseconds) / 1e15
  }

  static func sameFile(_ left: String, _ right: String) -> Bool {
    var a = stat()
    var b = stat()
    guard stat(left, &a) == 0, stat(right, &b) == 0 else { return left == right }
    return a.st_dev == b.st_dev && a.st_ino == b.st_ino
  }

  static func executable(pid: Int32) -> String {
    var buffer = [CChar](repeating: 0, count: 4096)
    let length = readlink("/proc/\(pid)/exe", &buffer, buffer.count - 1)
    guard length > 0 else { return "process \(pid)" }
    return String(decoding: buffer.prefix(length).map { UInt8(bitPattern: $0) }, as: UTF8.self)
  }
}

extension StoppedThread {
  /// The registers as MemoryView takes them.
  var memoryViewRegisters: ThreadRegisters? {
    guard let stackPointer else { return nil }
    let names = [
      "r15", "r14", "r13", "r12", "rbp", "rbx", "r11", "r10", "r9", "r8", "rax", "rcx", "rdx", "rsi", "rdi",
      "orig_rax", "rip", "cs", "eflags", "rsp", "ss", "fs_base", "gs_base", "ds", "es", "fs", "gs",
    ]
    return ThreadRegisters(
      threadID: thread, stackPointer: stackPointer, threadPointer: threadPointer ?? 0,
      values: Array(zip(names, words)))
  }
}

/// Names closures from their function pointers, through the target images' symbol tables.
struct FunctionNames {
  let images: ImageList

  func closureName(_ function: UInt) -> String? {
    guard let image = images.image(containing: function),
      let symbol = image.symbol(containing: function, kinds: .function)
    else { return nil }
    return ClosureNames.simplify(symbol.demangled)
  }
}
