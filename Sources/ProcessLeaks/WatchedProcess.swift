import Foundation
import HeapModel
import MemoryView

#if canImport(Glibc)
  import Glibc
#endif

/// A running process `leaklab watch` looks at again and again: one it
/// attached to (each ``snapshot()`` attaches, reads and detaches), or a
/// program it started under ptrace (its output into a file, so that it does
/// not draw over the app), run by a thread of its own that stops it for each
/// snapshot and reads it once more at its exit. Either way the process is
/// stopped only while its heap is read.
///
/// One caller at a time (the app's background queue): an attached process
/// answers ptrace only on the thread that attached it.
///
/// ```swift
/// let process = try WatchedProcess.attach(pid: pid)
/// let first = try process.snapshot()
/// // … later …
/// let second = try process.snapshot()
/// print(second.census.count(ofType: "Feed.Session") - first.census.count(ofType: "Feed.Session"))
/// ```
public final class WatchedProcess: @unchecked Sendable {
  /// The process id.
  public let pid: Int32
  /// The program's name (its executable's last path component).
  public let name: String
  /// Whether leaklab started it (then ``ending()`` knows its exit status).
  public let isLaunched: Bool
  /// Where a started program's standard output and error go.
  public let outputPath: String?
  /// Whether a started program runs under the allocation recorder
  /// (`--stacks`): then each snapshot names where each type's instances and
  /// each kind of leak were allocated, and each explanation where its instance was.
  public let recordsStacks: Bool
  /// What the leaks leave out (`leaklab leaks`' library defaults unless told otherwise).
  public var suppressions: Suppressions = .libraryDefaults
  private var ended: Ending?
  /// The thread that runs a program leaklab started.
  private let tracer: ProgramTracer?
  /// The frames named so far: each snapshot names only the stacks not seen before.
  private let symbols: StackSymbolizer.Cache

  /// How a watched process ended.
  public enum Ending: Sendable, Hashable, CustomStringConvertible {
    /// A program leaklab started ended this way.
    case ended(ProcessEnding)
    /// A process leaklab attached to is gone (its parent knows its status).
    case gone

    public var description: String {
      switch self {
      case .ended(let ending): "\(ending)"
      case .gone: "exited"
      }
    }
  }

  private init(
    pid: Int32, name: String, outputPath: String?, tracer: ProgramTracer?, recordsStacks: Bool = false,
    symbols: StackSymbolizer.Cache = StackSymbolizer.Cache()
  ) {
    self.pid = pid
    self.name = name
    isLaunched = tracer != nil
    self.outputPath = outputPath
    self.tracer = tracer
    self.recordsStacks = recordsStacks
    self.symbols = symbols
  }

  /// The running process `pid`; throws when there is none.
  public static func attach(pid: Int32) throws(ProcessLeaksError) -> WatchedProcess {
    guard pid > 0, kill(pid, 0) == 0 || errno == EPERM, !isZombie(pid) else { throw .noSuchProcess(pid) }
    let executable = LeakAnalysis.executable(pid: pid)
    return WatchedProcess(
      pid: pid, name: URL(fileURLWithPath: executable).lastPathComponent, outputPath: nil, tracer: nil)
  }

  /// Starts `command` (a program, looked up in `PATH`, and its arguments)
  /// under ptrace, standard input from `/dev/null`, standard output and
  /// error appended to `outputPath`, in a process group of its own. It runs
  /// on a thread of leaklab's (``ProgramTracer``) that stops it only for a
  /// snapshot, and holds it at its exit for the leaks at exit
  /// (``exitSnapshot``). With `stacks`, it runs under the allocation
  /// recorder, started as `leaklab leaks --stacks` starts a program.
  public static func launch(_ command: [String], outputPath: String, stacks: Bool = false)
    throws(ProcessLeaksError) -> WatchedProcess
  {
    guard let executable = command.first else { throw .cannotRun("", reason: "no program given") }
    guard let path = ExecutableLookup.resolve(executable) else {
      throw .cannotRun(executable, reason: ExecutableLookup.whyNot(executable))
    }
    let suppressions = Suppressions.libraryDefaults
    let symbols = StackSymbolizer.Cache()
    let tracer = try ProgramTracer([path] + command.dropFirst(), output: outputPath, stacks: stacks) {
      process throws(ProcessLeaksError) in
      try read(process, suppressions: suppressions, stacks: stacks, stoppedSince: ContinuousClock.now)
        .named(with: symbols)
    }
    return WatchedProcess(
      pid: tracer.pid, name: URL(fileURLWithPath: path).lastPathComponent, outputPath: outputPath,
      tracer: tracer, recordsStacks: stacks, symbols: symbols)
  }

  /// The snapshot a started program's tracer took at its exit, with the leaks at exit.
  public var exitSnapshot: WatchSnapshot? { tracer?.exitSnapshot }

  /// Ends a program leaklab started (SIGTERM; at most a few seconds' wait).
  public func stop() { tracer?.stop() }

  /// How the process ended, or nil while it runs. A started program is
  /// reaped here; one leaklab attached to is gone when no process has its id
  /// or only its zombie is left.
  public func ending() -> Ending? {
    if let tracer { return tracer.ending }
    if let ended { return ended }
    if kill(pid, 0) != 0 && errno == ESRCH || Self.isZombie(pid) {
      ended = .gone
    }
    return ended
  }

  /// Stops the process, reads its heap (every reference: leaks need them),
  /// counts it by type and finds its leaks, then lets it run on.
  /// With the recorder, the allocation sites are named once the process runs again.
  public func snapshot() throws(ProcessLeaksError) -> WatchSnapshot {
    let (suppressions, stacks) = (suppressions, recordsStacks)
    if let tracer {
      do {
        return try tracer.perform { [tracer] process throws(ProcessLeaksError) in
          try Self.read(process, suppressions: suppressions, stacks: stacks, stoppedSince: tracer.stoppedAt)
        }.named(with: symbols)
      } catch {
        // Ending: its end (and its leaks at exit) are known once the tracer is done with it.
        if error == ProgramTracer.endedError { tracer.waitUntilEnded(timeout: .now() + 30) }
        throw error
      }
    }
    let start = ContinuousClock.now
    let process = try attached()
    defer { process.detach() }
    return try Self.read(process, suppressions: suppressions, stacks: false, stoppedSince: start).snapshot
  }

  /// The census and the leaks of a stopped process, and with `stacks` the
  /// recorder's stacks (read while it is stopped, named later); the stop
  /// counted from `start`.
  static func read(
    _ process: TracedProcess, suppressions: Suppressions, stacks: Bool,
    stoppedSince start: ContinuousClock.Instant
  )
    throws(ProcessLeaksError) -> Reading
  {
    let time = Date()
    var phases: [String: Double] = [:]
    let model = try process.heapModel(scope: .full, phases: &phases)
    let census = model.census()
    let leaked = model.leakedBlocks(reachable: model.reachableFromRoots())
    let report = LeakReport(graph: LeakGraph(model: model, leaked: leaked), suppressions: suppressions)
    var reading = Reading(
      snapshot: WatchSnapshot(
        time: time, stoppedMilliseconds: 0, census: census, leaks: report.kinds,
        leakSummary: report.summary))
    if stacks, let recorded = AllocationRecorder.stacks(in: model) {
      model.attach(recorded)
      reading.model = model
      reading.executable = LeakAnalysis.executable(pid: process.pid)
      for kind in report.kinds {
        if let root = kind.roots.first { reading.leakRoots[kind.id] = report.graph.blocks[root].address }
      }
    }
    reading.snapshot.stoppedMilliseconds = LeakAnalysis.milliseconds(ContinuousClock.now - start)
    return reading
  }

  /// A snapshot just read and, when the recorder's stacks were read with it,
  /// what names its allocation sites once the process runs again.
  struct Reading: Sendable {
    var snapshot: WatchSnapshot
    /// The model, its stacks attached (with the recorder only).
    var model: HeapModel?
    var executable = ""
    /// Each kind of leak's first root block, by kind id.
    var leakRoots: [String: UInt] = [:]

    /// The snapshot with the site that allocated the most of each type's
    /// instances and each kind's first leak (every frame named once, and
    /// once for the process with `symbols`).
    func named(with symbols: StackSymbolizer.Cache) -> WatchSnapshot {
      guard let model, let stacks = model.allocationStacks else { return snapshot }
      var typeStacks: [String: AllocationStacks.Commonest] = [:]
      for entry in snapshot.census.entries where !entry.kind.isFree {
        typeStacks[entry.key] = model.commonestAllocationStack(of: entry.instances)
      }
      var leakStacks: [String: Int] = [:]
      for (id, address) in leakRoots {
        leakStacks[id] = model.block(containing: address).flatMap { stacks.stack(of: $0) }
      }
      let symbolizer = StackSymbolizer(images: model.snapshot.images, executable: executable, cache: symbols)
      let sites = symbolizer.sites(
        of: Set(typeStacks.values.map(\.stack)).union(leakStacks.values), in: stacks)
      var named = snapshot
      named.sites = typeStacks.compactMapValues { top in
        sites[top.stack].map { WatchSnapshot.TypeSite(site: $0, count: top.count, recorded: top.recorded) }
      }
      named.leakSites = leakStacks.compactMapValues { sites[$0] }
      return named
    }
  }

  /// What `explain` is asked about.
  public enum Subject: Sendable, Hashable {
    /// An instance of the census type with this key: one that is not among
    /// `since` when given (the newest such), else the newest.
    case type(key: String, since: InstanceAddresses?)
    /// One leak of the kind with this id.
    case leak(kindID: String)
  }

  /// Why one instance is alive, and where it was allocated.
  public struct Explanation: Sendable, Hashable {
    /// Its path from a true root, or its cycle.
    public var why: HeapModel.WhyAlive
    /// The site that allocated it (with the recorder, when it saw the block).
    public var site: AllocationSite?

    public init(why: HeapModel.WhyAlive, site: AllocationSite? = nil) {
      self.why = why
      self.site = site
    }
  }

  /// Why one instance of `subject` is alive: its path from a true root or
  /// its cycle, read while the process is stopped, and with the recorder the
  /// site that allocated it (named once the process runs again). Nil when
  /// the process has no such instance any more.
  public func explain(_ subject: Subject) throws(ProcessLeaksError) -> Explanation? {
    let (suppressions, stacks) = (suppressions, recordsStacks)
    let found: Found?
    if let tracer {
      found = try tracer.perform { process throws(ProcessLeaksError) in
        try Self.explain(subject, in: process, suppressions: suppressions, stacks: stacks)
      }
    } else {
      let process = try attached()
      defer { process.detach() }
      found = try Self.explain(subject, in: process, suppressions: suppressions, stacks: false)
    }
    guard let found else { return nil }
    let site = found.stack.map {
      StackSymbolizer(images: found.images, executable: found.executable, cache: symbols).site(of: $0)
    }
    return Explanation(why: found.why, site: site)
  }

  /// What an explanation reads while the process is stopped: why the block
  /// is alive and the stack that allocated it, not named yet.
  struct Found: Sendable {
    var why: HeapModel.WhyAlive
    var stack: [UInt]?
    var images: ImageList
    var executable: String
  }

  /// Why the block of `subject` is alive and, with `stacks`, the stack that
  /// allocated it, read from the recorder's table of the stopped process.
  static func explain(_ subject: Subject, in process: TracedProcess, suppressions: Suppressions, stacks: Bool)
    throws(ProcessLeaksError) -> Found?
  {
    var phases: [String: Double] = [:]
    let model = try process.heapModel(scope: .full, phases: &phases)
    guard let block = block(of: subject, in: model, suppressions: suppressions),
      let why = model.whyAlive(block)
    else { return nil }
    let images = model.snapshot.images
    let stack =
      stacks
      ? AllocationRecorder.stack(
        ofBlockAt: model.block(block).address, images: images, memory: model.snapshot.memory) : nil
    return Found(
      why: why, stack: stack, images: images, executable: LeakAnalysis.executable(pid: process.pid))
  }

  static func block(of subject: Subject, in model: HeapModel, suppressions: Suppressions) -> Int? {
    switch subject {
    case .type(let key, let since):
      guard let entry = model.census().entry(key: key) else { return nil }
      if let path = model.growthPath(toNewInstanceOf: entry, since: since) {
        return model.block(containing: path.address)
      }
      let fresh = since.map { entry.instances.subtracting($0) } ?? Array(entry.instances)
      return (fresh.last ?? Array(entry.instances).last).flatMap { model.block(containing: $0) }
    case .leak(let kindID):
      let leaked = model.leakedBlocks(reachable: model.reachableFromRoots())
      let report = LeakReport(graph: LeakGraph(model: model, leaked: leaked), suppressions: suppressions)
      guard let kind = report.kinds.first(where: { $0.id == kindID }), let root = kind.roots.first else {
        return nil
      }
      return model.block(containing: report.graph.blocks[root].address)
    }
  }

  private func attached() throws(ProcessLeaksError) -> TracedProcess {
    if let ending = ending() { throw .system("process \(pid) \(ending)", detail: "no snapshot") }
    return try TracedProcess.attach(pid: pid)
  }

  private static func isZombie(_ pid: Int32) -> Bool {
    guard let stat = try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8),
      let close = stat.lastIndex(of: ")")
    else { return false }
    return stat[stat.index(after: close)...].trimmingCharacters(in: .whitespaces).hasPrefix("Z")
  }
}

/// One look at a watched process: its census and its leaks.
public struct WatchSnapshot: Sendable, Hashable {
  /// When it was taken.
  public var time: Date
  /// How long the process was stopped for it, milliseconds.
  public var stoppedMilliseconds: Double
  public var census: HeapCensus
  /// The kinds of leaks, grouped as `leaklab leaks` groups them, the most first.
  public var leaks: [LeakKind]
  /// `3 leaked objects, 168 bytes, 1 retain cycle`.
  public var leakSummary: String
  /// With the allocation recorder: for each census type (by key), the site
  /// that allocated the most of its live instances.
  public var sites: [String: TypeSite]
  /// With the allocation recorder: for each kind of leak (by id), the site
  /// that allocated its first leak's root.
  public var leakSites: [String: AllocationSite]

  /// Where a type's live instances were allocated: the site of the most of
  /// them, how many it allocated and how many have a recorded site at all.
  public struct TypeSite: Sendable, Hashable {
    public var site: AllocationSite
    public var count: Int
    public var recorded: Int

    public init(site: AllocationSite, count: Int, recorded: Int) {
      self.site = site
      self.count = count
      self.recorded = recorded
    }
  }

  public init(
    time: Date, stoppedMilliseconds: Double, census: HeapCensus, leaks: [LeakKind] = [],
    leakSummary: String = "0 leaked objects, 0 bytes, 0 retain cycles", sites: [String: TypeSite] = [:],
    leakSites: [String: AllocationSite] = [:]
  ) {
    self.time = time
    self.stoppedMilliseconds = stoppedMilliseconds
    self.census = census
    self.leaks = leaks
    self.leakSummary = leakSummary
    self.sites = sites
    self.leakSites = leakSites
  }
}
