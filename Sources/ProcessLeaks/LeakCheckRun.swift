/// The two ways to check a program: start it and hold it at its exit, or
/// stop a running process and let it go.
///
/// ```swift
/// let outcome = try LeakCheckRun.launched(["/usr/local/bin/tool", "--once"])
/// if let analysis = outcome.analysis {
///   print(LeakReport(graph: analysis.graph).summary)
/// }
/// ```
public enum LeakCheckRun {
  /// Starts `command` (the program, then its arguments), analyses it at its
  /// exit, then lets it finish. `analysis` is nil when the program did not
  /// reach an exit (a signal killed it); the process's `ending` says how it ended.
  /// With `stacks`, the program runs under the allocation recorder and each
  /// leaked block gets the site that allocated it; `output` says where the
  /// program's standard output goes.
  public static func launched(
    _ command: [String], reachable: [String] = [], stacks: Bool = false,
    output: TracedProcess.ProgramOutput = .inherited
  ) throws(ProcessLeaksError) -> LeakCheckOutcome {
    guard let executable = command.first else { throw .cannotRun("", reason: "no program given") }
    let process = try TracedProcess.launch(command, stacks: stacks, output: output)
    var checked = CheckedProcess(
      pid: process.pid, executable: executable, arguments: Array(command.dropFirst()), mode: .launched)
    switch try process.runToExit() {
    case .ended(let ending):
      checked.ending = ending
      return LeakCheckOutcome(process: checked, analysis: nil)
    case .atExit:
      checked.executable = LeakAnalysis.executable(pid: process.pid)
      let analysis: LeakAnalysis
      do {
        analysis = try LeakAnalysis(process: process, reachableTypes: reachable, stacks: stacks)
      } catch {
        _ = try? process.finish()
        throw error
      }
      checked.ending = try process.finish()
      return LeakCheckOutcome(process: checked, analysis: analysis)
    }
  }

  /// Stops every thread of the running process `pid`, analyses it and lets
  /// it run on unchanged.
  public static func attached(pid: Int32, reachable: [String] = []) throws(ProcessLeaksError)
    -> LeakCheckOutcome
  {
    let process = try TracedProcess.attach(pid: pid)
    defer { process.detach() }
    let analysis = try LeakAnalysis(process: process, reachableTypes: reachable)
    let checked = CheckedProcess(
      pid: pid, executable: LeakAnalysis.executable(pid: pid), arguments: [], mode: .attached)
    return LeakCheckOutcome(process: checked, analysis: analysis)
  }
}

/// What a check found about a process.
public struct LeakCheckOutcome: Sendable {
  /// The process and, for a launched program, how it ended.
  public var process: CheckedProcess
  /// The analysis, or nil when the program never reached an exit.
  public var analysis: LeakAnalysis?
}
