import Foundation
import HeapModel

#if canImport(Glibc)
  import Glibc
#endif

/// A running process `leaklab watch` looks at again and again: one it
/// attached to, or a program it started (its output into a file, so that it
/// does not draw over the app). Each ``snapshot()`` stops the
/// process only while its heap is read, and lets it run on unchanged.
///
/// Not thread-safe: one caller at a time (the app's background queue), since
/// ptrace answers only the thread that attached and a launched program is
/// reaped by whoever asks first.
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
  /// What the leaks leave out (`leaklab leaks`' library defaults unless told otherwise).
  public var suppressions: Suppressions = .libraryDefaults
  private var ended: Ending?

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

  private init(pid: Int32, name: String, isLaunched: Bool, outputPath: String?) {
    self.pid = pid
    self.name = name
    self.isLaunched = isLaunched
    self.outputPath = outputPath
  }

  /// The running process `pid`; throws when there is none.
  public static func attach(pid: Int32) throws(ProcessLeaksError) -> WatchedProcess {
    guard pid > 0, kill(pid, 0) == 0 || errno == EPERM, !isZombie(pid) else { throw .noSuchProcess(pid) }
    let executable = LeakAnalysis.executable(pid: pid)
    return WatchedProcess(
      pid: pid, name: URL(fileURLWithPath: executable).lastPathComponent, isLaunched: false, outputPath: nil)
  }

  /// Starts `command` (a program, looked up in `PATH`, and its arguments),
  /// standard input from `/dev/null`, standard output and error appended to
  /// `outputPath`.
  public static func launch(_ command: [String], outputPath: String) throws(ProcessLeaksError)
    -> WatchedProcess
  {
    guard let executable = command.first else { throw .cannotRun("", reason: "no program given") }
    guard let path = ExecutableLookup.resolve(executable) else {
      throw .cannotRun(executable, reason: ExecutableLookup.whyNot(executable))
    }
    var actions = posix_spawn_file_actions_t()
    posix_spawn_file_actions_init(&actions)
    defer { posix_spawn_file_actions_destroy(&actions) }
    posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
    posix_spawn_file_actions_addopen(&actions, 1, outputPath, O_WRONLY | O_CREAT | O_APPEND, 0o644)
    posix_spawn_file_actions_adddup2(&actions, 1, 2)
    var attributes = posix_spawnattr_t()
    posix_spawnattr_init(&attributes)
    defer { posix_spawnattr_destroy(&attributes) }
    // A thread may block signals the program expects (seen through tmux); it starts with none blocked.
    var none = sigset_t()
    sigemptyset(&none)
    posix_spawnattr_setsigmask(&attributes, &none)
    var defaults = sigset_t()
    sigemptyset(&defaults)
    for signal in [SIGINT, SIGQUIT, SIGPIPE, SIGTERM] { sigaddset(&defaults, signal) }
    posix_spawnattr_setsigdefault(&attributes, &defaults)
    posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF))
    var pid: pid_t = 0
    let status = withCStrings([path] + Array(command.dropFirst())) { argv in
      posix_spawn(&pid, path, &actions, &attributes, argv, environ)
    }
    guard status == 0 else { throw .cannotRun(executable, reason: TracedProcess.describe(errno: status)) }
    return WatchedProcess(
      pid: pid, name: URL(fileURLWithPath: path).lastPathComponent, isLaunched: true, outputPath: outputPath)
  }

  /// How the process ended, or nil while it runs. A started program is
  /// reaped here; one leaklab attached to is gone when no process has its id
  /// or only its zombie is left.
  public func ending() -> Ending? {
    if let ended { return ended }
    if isLaunched {
      var status: Int32 = 0
      let reaped = waitpid(pid, &status, WNOHANG)
      if reaped == pid {
        let low = status & 0x7f
        ended = .ended(low == 0 ? .exited((status >> 8) & 0xff) : .signalled(low))
      } else if reaped < 0 && errno == ECHILD {
        ended = .gone
      }
    } else if kill(pid, 0) != 0 && errno == ESRCH || Self.isZombie(pid) {
      ended = .gone
    }
    return ended
  }

  /// Stops the process, reads its heap (every reference: leaks need them),
  /// counts it by type and finds its leaks, then lets it run on.
  public func snapshot() throws(ProcessLeaksError) -> WatchSnapshot {
    let time = Date()
    let clock = ContinuousClock()
    let start = clock.now
    let process = try attached()
    let census: HeapCensus
    let report: LeakReport
    do {
      var phases: [String: Double] = [:]
      let model = try process.heapModel(scope: .full, phases: &phases)
      census = model.census()
      let leaked = model.leakedBlocks(reachable: model.reachableFromRoots())
      report = LeakReport(graph: LeakGraph(model: model, leaked: leaked), suppressions: suppressions)
    } catch {
      process.detach()
      throw error
    }
    process.detach()
    return WatchSnapshot(
      time: time, stoppedMilliseconds: LeakAnalysis.milliseconds(clock.now - start), census: census,
      leaks: report.kinds, leakSummary: report.summary)
  }

  /// What `explain` is asked about.
  public enum Subject: Sendable, Hashable {
    /// An instance of the census type with this key: one that is not among
    /// `since` when given (the newest such), else the newest.
    case type(key: String, since: InstanceAddresses?)
    /// One leak of the kind with this id.
    case leak(kindID: String)
  }

  /// Why one instance of `subject` is alive: its path from a true root or
  /// its cycle, read while the process is stopped. Nil when the process has
  /// no such instance any more.
  public func explain(_ subject: Subject) throws(ProcessLeaksError) -> HeapModel.WhyAlive? {
    let process = try attached()
    defer { process.detach() }
    var phases: [String: Double] = [:]
    let model = try process.heapModel(scope: .full, phases: &phases)
    guard let block = Self.block(of: subject, in: model, suppressions: suppressions) else { return nil }
    return model.whyAlive(block)
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

  public init(
    time: Date, stoppedMilliseconds: Double, census: HeapCensus, leaks: [LeakKind] = [],
    leakSummary: String = "0 leaked objects, 0 bytes, 0 retain cycles"
  ) {
    self.time = time
    self.stoppedMilliseconds = stoppedMilliseconds
    self.census = census
    self.leaks = leaks
    self.leakSummary = leakSummary
  }

}
