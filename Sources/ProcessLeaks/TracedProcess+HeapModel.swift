import HeapModel
import MemoryView

extension TracedProcess {
  /// The heap model of this process, which must be stopped (held at its
  /// exit, or attached): its snapshot with every thread's registers, and its
  /// threads' stacks cut to what ``StackRoots`` says is live.
  ///
  /// ```swift
  /// let process = try TracedProcess.attach(pid: pid)
  /// defer { process.detach() }
  /// let model = try process.heapModel()
  /// ```
  public func heapModel() throws(ProcessLeaksError) -> HeapModel {
    var phases: [String: Double] = [:]
    return try heapModel(scope: .full, phases: &phases)
  }

  /// The heap model of this stopped process, read as far as `scope` says;
  /// adds the milliseconds of its `snapshot` and `model` phases to `phases`.
  public func heapModel(scope: HeapModel.Scope, phases: inout [String: Double]) throws(ProcessLeaksError)
    -> HeapModel
  {
    let clock = ContinuousClock()
    let start = clock.now
    let map: MemoryMap
    do {
      map = try MemoryMap(pid: pid)
    } catch {
      throw .system("cannot read the mappings of process \(pid)", detail: error.description)
    }
    let executable = LeakAnalysis.executable(pid: pid)
    try RuntimeCheck.verify(
      images: ImageList(map: map, memory: ProcessMemory(pid: pid)), executable: executable)
    let snapshot: ProcessSnapshot
    do {
      snapshot = try ProcessSnapshot(
        pid: pid, registers: threads.compactMap(\.memoryViewRegisters), keepsSecondWords: scope != .full)
    } catch {
      throw .system("cannot read process \(pid)", detail: error.description)
    }
    var rootRanges: [RootRange]?
    if scope == .full {
      let stackRoots = StackRoots(map: snapshot.map, images: snapshot.images)
      let stopped = Dictionary(threads.map { ($0.thread, $0) }, uniquingKeysWith: { first, _ in first })
      rootRanges = stackRoots.rootRanges(
        snapshot.roots, threads: snapshot.threads, process: self, stopped: stopped)
    }
    let built = clock.now
    phases["snapshot", default: 0] += LeakAnalysis.milliseconds(built - start)
    defer { phases["model", default: 0] += LeakAnalysis.milliseconds(clock.now - built) }
    do {
      return try HeapModel(snapshot: snapshot, rootRanges: rootRanges, scope: scope)
    } catch {
      throw .system("cannot read the heap of process \(pid)", detail: error.description)
    }
  }
}

extension LeakCheckRun {
  /// Stops every thread of the running process `pid`, builds its heap model,
  /// runs `body` on it and lets the process run on unchanged.
  ///
  /// ```swift
  /// let count = try LeakCheckRun.withModel(ofAttached: pid) { model in model.blockCount }
  /// ```
  public static func withModel<Result>(
    ofAttached pid: Int32, _ body: (HeapModel) throws -> Result
  ) throws -> Result {
    let process = try TracedProcess.attach(pid: pid)
    defer { process.detach() }
    return try body(try process.heapModel())
  }
}
