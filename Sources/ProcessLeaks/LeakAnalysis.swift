import HeapModel
import MemoryView
import RetainGraph

#if canImport(Glibc)
  import Glibc
#endif

/// What a stopped process leaked: its heap's blocks that nothing reachable
/// holds, named and linked.
///
/// The heap model (``HeapModel``) reads every block as Swift metadata
/// describes it, C memory conservatively; its roots are MemoryView's (the
/// images' globals, thread-local storage of live and exited threads, memory
/// the program mapped itself, every thread's registers), with each thread's
/// stack cut to what ``StackRoots`` says is live. The model's mark reaches
/// what the program can still use; the rest leaked. Nothing is written to
/// the process.
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
  /// - Parameter stacks: read the allocation recorder's stacks (the program
  ///   was started with it, see ``AllocationRecorder``) and give each leaked
  ///   block its allocation site.
  public init(process: TracedProcess, reachableTypes: [String] = [], stacks: Bool = false)
    throws(ProcessLeaksError)
  {
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
    let model = try process.heapModel()
    phase("model")
    let reachableBlocks = model.reachableFromRoots()
    phase("mark")
    graph = LeakGraph(model: model, leaked: model.leakedBlocks(reachable: reachableBlocks))
    reachable =
      reachableTypes.isEmpty
      ? [] : Self.reachableInstances(in: model, reachable: reachableBlocks, matching: reachableTypes)
    phase("naming")
    if stacks { Self.attachSites(to: &graph, model: model, phase: phase) }
    let elapsed = clock.now - start
    var usage = rusage()
    getrusage(RUSAGE_SELF.rawValue, &usage)
    let heap = model.snapshot.heap
    figures = AnalysisFigures(
      heapBlocks: heap.count, heapBytes: Int(heap.liveBytes), rootBytes: model.figures.rootBytes,
      milliseconds: Self.milliseconds(elapsed),
      peakMemoryBytes: Int(usage.ru_maxrss) * 1024)
    figures.phases = phases
    figures.cpuMilliseconds = Self.milliseconds(Self.cpuTime() - startCPU)
    figures.markTableBytes = model.tableBytes
    figures.heapTableBytes = heap.tableBytes
    figures.heapWalkNotes = heap.report.notes
    figures.arenasFound = heap.report.arenasFound
    figures.heapsWalked = heap.report.mainHeaps + heap.report.arenaHeaps
  }

  /// Instances of the types `patterns` match that are still reachable, with
  /// the path that reaches each from a root (at most 20 per pattern).
  static func reachableInstances(in model: HeapModel, reachable: BlockSet, matching patterns: [String])
    -> [ReachableInstance]
  {
    var found: [ReachableInstance] = []
    var perPattern = [Int](repeating: 0, count: patterns.count)
    for block in 0..<model.blockCount where reachable.contains(block) && model.kind(of: block) == .object {
      let type = model.type(of: block)
      guard
        let pattern = patterns.indices.first(where: { index in
          Glob.matches(patterns[index], type.name)
            || type.qualifiedName.map { Glob.matches(patterns[index], $0) } == true
        }), perPattern[pattern] < 20
      else { continue }
      perPattern[pattern] += 1
      let heapBlock = model.block(block)
      found.append(
        ReachableInstance(
          typeName: type.name, address: heapBlock.address, size: Int(heapBlock.size),
          path: model.describePath(to: block)))
    }
    return found
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
