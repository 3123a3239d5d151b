import Foundation
import HeapModel

/// One census of a process (``HeapCensus``), taken while it was stopped, and
/// what it was compared with.
///
/// ```swift
/// let first = try CensusRun.attached(pid: pid)
/// // … the process serves 200 requests …
/// let second = try CensusRun.attached(pid: pid, comparingWith: first.census)
/// for change in second.comparison?.diff.grown ?? [] {
///   print("+\(change.growth) \(change.name)", second.comparison?.paths[change.key]?.text ?? "")
/// }
/// ```
public struct TakenCensus: Sendable {
  /// The process and, for a launched program, how it ended.
  public var process: CheckedProcess
  public var census: HeapCensus
  /// When the census was taken.
  public var time: Date
  /// How long the process was stopped for it: from the stop (the attach, or
  /// the program's exit) until it was let go, milliseconds.
  public var stoppedMilliseconds: Double
  /// LeakLab's CPU time meanwhile (user and system), milliseconds: the
  /// stop's length on a machine with nothing else running.
  public var cpuMilliseconds: Double = 0
  /// What the heap walk could not check (empty when it walked every heap).
  public var heapWalkNotes: [String]
  /// The comparison with an earlier census, when one was given.
  public var comparison: Comparison?
  /// Milliseconds of each phase while the process was stopped: `snapshot`
  /// (maps, images, threads, heap walk), `model` (every block typed; with a
  /// comparison, every reference read too), `census`, `diff`, `paths`.
  public var phases: [String: Double] = [:]

  /// A census taken of `process` at `time`.
  public init(
    process: CheckedProcess, census: HeapCensus, time: Date, stoppedMilliseconds: Double,
    heapWalkNotes: [String] = [], comparison: Comparison? = nil, phases: [String: Double] = [:]
  ) {
    self.process = process
    self.census = census
    self.time = time
    self.stoppedMilliseconds = stoppedMilliseconds
    self.heapWalkNotes = heapWalkNotes
    self.comparison = comparison
    self.phases = phases
  }

  /// A census compared with an earlier one.
  public struct Comparison: Sendable {
    public var diff: CensusDiff
    /// For each grown type (by key) that has new instances, a path from a
    /// root to one of them, found while the process was stopped.
    public var paths: [String: HeapModel.GrowthPath]
    /// For each grown type (by key), the site that allocated most of its
    /// instances (with `--stacks`).
    public var sites: [String: AllocationSite] = [:]
  }
}

/// Takes censuses of processes: a program started and held at its exit, or
/// a running process stopped only while its heap is read.
public enum CensusRun {
  /// At most this many grown types get a path (the largest growth first).
  public static let defaultPathCount = 10

  /// Starts `command`, takes its census at its exit (compared with `earlier`
  /// when given), then lets it finish. Nil census when the program ended
  /// without an exit to stop at (a signal killed it): `process.ending` says how.
  /// With `stacks`, the program runs under the allocation recorder and each
  /// grown type gets the site that allocated most of its instances.
  public static func launched(
    _ command: [String], comparingWith earlier: HeapCensus? = nil, pathCount: Int = defaultPathCount,
    stacks: Bool = false, output: TracedProcess.ProgramOutput = .inherited
  ) throws(ProcessLeaksError) -> (process: CheckedProcess, census: TakenCensus?) {
    guard let executable = command.first else { throw .cannotRun("", reason: "no program given") }
    let process = try TracedProcess.launch(command, stacks: stacks, output: output)
    var checked = CheckedProcess(
      pid: process.pid, executable: executable, arguments: Array(command.dropFirst()), mode: .launched)
    switch try process.runToExit() {
    case .ended(let ending):
      checked.ending = ending
      return (checked, nil)
    case .atExit:
      let clock = ContinuousClock()
      let stopped = clock.now
      let cpu = LeakAnalysis.cpuTime()
      checked.executable = LeakAnalysis.executable(pid: process.pid)
      let taken: TakenCensus
      do {
        taken = try take(process, checked: checked, earlier: earlier, pathCount: pathCount, stacks: stacks)
      } catch {
        _ = try? process.finish()
        throw error
      }
      let held = LeakAnalysis.milliseconds(clock.now - stopped)
      let used = LeakAnalysis.milliseconds(LeakAnalysis.cpuTime() - cpu)
      checked.ending = try process.finish()
      var result = taken
      result.process = checked
      result.stoppedMilliseconds = held
      result.cpuMilliseconds = used
      return (checked, result)
    }
  }

  /// Stops every thread of the running process `pid`, takes its census
  /// (compared with `earlier` when given, the paths found while it is
  /// stopped) and lets it run on unchanged.
  public static func attached(
    pid: Int32, comparingWith earlier: HeapCensus? = nil, pathCount: Int = defaultPathCount
  ) throws(ProcessLeaksError) -> TakenCensus {
    let clock = ContinuousClock()
    let start = clock.now
    let cpu = LeakAnalysis.cpuTime()
    let process = try TracedProcess.attach(pid: pid)
    let checked = CheckedProcess(
      pid: pid, executable: LeakAnalysis.executable(pid: pid), arguments: [], mode: .attached)
    let taken: TakenCensus
    do {
      taken = try take(process, checked: checked, earlier: earlier, pathCount: pathCount)
    } catch {
      process.detach()
      throw error
    }
    process.detach()
    var result = taken
    result.stoppedMilliseconds = LeakAnalysis.milliseconds(clock.now - start)
    result.cpuMilliseconds = LeakAnalysis.milliseconds(LeakAnalysis.cpuTime() - cpu)
    return result
  }

  /// The census of a stopped process and, with `earlier`, the paths to new
  /// instances of what grew: everything that reads the process's memory.
  static func take(
    _ process: TracedProcess, checked: CheckedProcess, earlier: HeapCensus?, pathCount: Int,
    stacks: Bool = false
  ) throws(ProcessLeaksError) -> TakenCensus {
    let time = Date()
    let clock = ContinuousClock()
    var phases: [String: Double] = [:]
    // Paths need every reference; a census alone, only the blocks' types.
    let model = try process.heapModel(
      scope: earlier != nil && pathCount > 0 ? .full : .types, phases: &phases)
    var start = clock.now
    func phase(_ name: String) {
      let now = clock.now
      phases[name] = LeakAnalysis.milliseconds(now - start)
      start = now
    }
    let census = model.census()
    phase("census")
    var comparison: TakenCensus.Comparison?
    if let earlier {
      let diff = CensusDiff(from: earlier, to: census)
      phase("diff")
      comparison = TakenCensus.Comparison(
        diff: diff, paths: growthPaths(diff, in: model, census: census, earlier: earlier, limit: pathCount))
      phase("paths")
      if stacks {
        comparison?.sites = growthSites(diff, in: model, census: census)
        phase("stacks")
      }
    }
    return TakenCensus(
      process: checked, census: census, time: time, stoppedMilliseconds: 0,
      heapWalkNotes: model.snapshot.heap.report.notes, comparison: comparison, phases: phases)
  }

  /// Paths to a new instance of each of the `limit` most grown types with
  /// new instances: the program's own types first, then other Swift types,
  /// then C memory.
  static func growthPaths(
    _ diff: CensusDiff, in model: HeapModel, census: HeapCensus, earlier: HeapCensus, limit: Int
  ) -> [String: HeapModel.GrowthPath] {
    var paths: [String: HeapModel.GrowthPath] = [:]
    let candidates = diff.grown.enumerated().filter {
      $0.element.newInstances != 0 && !$0.element.kind.isFree
    }
    .sorted { left, right in
      func rank(_ change: CensusDiff.Change) -> Int {
        change.isProgramType ? 0 : change.kind.isSwiftObject ? 1 : 2
      }
      return (rank(left.element), left.offset) < (rank(right.element), right.offset)
    }.map(\.element)
    for change in candidates {
      guard paths.count < limit else { break }
      guard let entry = census.entry(key: change.key) else { continue }
      let before = earlier.entry(key: change.key)
      let known = before.flatMap { $0.instances.count == $0.count ? $0.instances : nil }
      if before != nil && known == nil { continue }  // no addresses to tell new ones by
      let since = known ?? InstanceAddresses()
      if let path = model.growthPath(toNewInstanceOf: entry, since: since) { paths[change.key] = path }
    }
    return paths
  }
}

extension CensusDiff {
  /// The grown types whose growth is past `threshold` and whose name or
  /// module-qualified name matches one of `patterns` (`*`, `?`; every type
  /// when there are none): what `leaklab heap --diff-from` exits 1 for.
  public func grown(pastThreshold threshold: Int, matching patterns: [String]) -> [Change] {
    grown(pastThreshold: threshold).filter {
      TypePatterns.matches(patterns, name: $0.name, qualifiedName: $0.qualifiedName)
    }
  }
}

/// Type patterns as `--gate` takes them.
enum TypePatterns {
  /// Whether `name` or `qualifiedName` matches one of `patterns` (`*`, `?`); true when there are none.
  static func matches(_ patterns: [String], name: String, qualifiedName: String?) -> Bool {
    patterns.isEmpty
      || patterns.contains { pattern in
        Glob.matches(pattern, name) || qualifiedName.map { Glob.matches(pattern, $0) } == true
      }
  }
}
