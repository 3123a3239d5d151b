import ArgumentParser
import Foundation
import MemoryView
import ProcessLeaks

#if !LEAKLAB_WITHOUT_LINT
  import LeakLint
#endif

/// `leaklab leaks -- PROGRAM [ARGS…]` and `leaklab leaks --pid PID`: every
/// leaked Swift object of a Linux program, with its type and retain cycles.
///
/// The program runs unchanged (nothing linked in, nothing instrumented;
/// with `--stacks`, the allocation recorder preloaded) and is held at its exit with its memory intact; the analysis reads it from
/// outside, then the program finishes. Exit status: the program's own when
/// it failed; otherwise 1 when something leaked, 0 when nothing did (2 for
/// bad input or when the check could not be made). See docs/leaks.md.
struct LeaksCommand: ParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "leaks",
    abstract: "Every leaked Swift object of a program at its exit, with types and retain cycles.",
    usage: """
      leaklab leaks [OPTIONS] -- PROGRAM [ARGS…]
      leaklab leaks [OPTIONS] --pid PID
      """,
    discussion: """
      Runs PROGRAM unchanged, stops it at its exit with its memory intact, reports what nothing \
      reachable points to, then lets it finish. With --pid, stops a running process, reads it and \
      lets it go unchanged. The report starts with one line per kind of leak (the same cycle of \
      types and references, whatever the addresses and sizes), with an id that stays the same \
      from run to run. Exit status: the program's own when it failed (or 128 + the signal that \
      killed it), else 1 when something leaked (with --baseline: a kind the baseline does not \
      have) and 0 when nothing did; 2 when the check could not be made. Standard output is the report's: the program's own standard output goes \
      to standard error, unless -o writes the report to a file. Needs ptrace (root, \
      CAP_SYS_PTRACE or kernel.yama.ptrace_scope=0).
      """
  )

  @Option(name: .customLong("pid"), help: "Check this running process instead of starting a program.")
  var pid: Int32?

  @Flag(help: "Print the report as JSON (schema: docs/leaks-json.md).")
  var json = false

  @Option(
    name: [.short, .customLong("output")], help: "Write the report to this file instead of standard output.")
  var output: String?

  @Option(
    name: .customLong("ignore"),
    help: "Leave out leaks of types matching this pattern (`*`, `?`); repeatable.")
  var ignore: [String] = []

  @Option(name: .customLong("suppressions"), help: "A suppressions file (`type PATTERN` lines); repeatable.")
  var suppressionFiles: [String] = []

  @Flag(help: "Report known library leaks too (Foundation's Timer on Linux).")
  var noDefaultSuppressions = false

  @Option(help: "List instances of types matching this pattern still reachable at exit, with their path.")
  var reachable: [String] = []

  @Option(
    help: ArgumentHelp(
      "Exit with status 1 only for leaks of types matching this pattern (repeatable); any leak by default.",
      valueName: "pattern"))
  var gate: [String] = []

  @Option(
    help: ArgumentHelp(
      "An earlier report written with --json: exit with status 1 only for kinds of leak it does not have.",
      valueName: "file"))
  var baseline: String?

  @Option(
    help: ArgumentHelp(
      "With --baseline, also exit with status 1 when a kind's count grew by more than this.",
      valueName: "count"))
  var threshold: Int?
  @Flag(
    help: "Record allocation stacks (LD_PRELOAD): each leak gets the line that allocated it (not with --pid)."
  )
  var stacks = false

  @Option(
    help: ArgumentHelp(
      "The program's sources: each kind whose pattern `leaklab lint` finds there names the line.",
      valueName: "folder"))
  var sources: String?

  @Argument(parsing: .captureForPassthrough, help: "The program and its arguments, after `--`.")
  var program: [String] = []

  func validate() throws {
    // Before `--`, `-h`/`--help` asks for this help (the passthrough would take it as the program).
    if let first = program.first, ["-h", "--help"].contains(first) { throw CleanExit.helpRequest(self) }
    let command = program.first == "--" ? Array(program.dropFirst()) : program
    if pid == nil && command.isEmpty {
      throw ValidationError("give a program after -- or a process with --pid")
    }
    if pid != nil && !command.isEmpty { throw ValidationError("give either a program or --pid, not both") }
    if threshold != nil && baseline == nil { throw ValidationError("--threshold needs --baseline") }
    if let threshold, threshold < 0 { throw ValidationError("--threshold must be 0 or more") }
    if pid != nil && stacks { throw ValidationError("--stacks needs a program leaklab starts, not --pid") }
  }

  func run() throws {
    let suppressions = try loadSuppressions()
    let earlier = loadBaseline()
    if let sources, !FileManager.default.fileExists(atPath: sources) {
      Self.fail("--sources: no such file or folder: \(sources)")
    }
    let command = program.first == "--" ? Array(program.dropFirst()) : program
    let outcome: LeakCheckOutcome
    do {
      outcome =
        if let pid {
          try LeakCheckRun.attached(pid: pid, reachable: reachable)
        } else {
          try LeakCheckRun.launched(
            command, reachable: reachable, stacks: stacks, output: output == nil ? .standardError : .inherited
          )
        }
    } catch {
      Self.fail(error.description)
    }
    guard let analysis = outcome.analysis else {
      // The program ended without an exit to stop at (a signal killed it).
      if let ending = outcome.process.ending {
        Self.warn("\(outcome.process.executable) \(ending) before it could exit: no leak check")
        throw ExitCode(ending.shellStatus)
      }
      throw ExitCode(2)
    }
    var report = LeakReport(graph: analysis.graph, suppressions: suppressions)
    annotateSources(&report)
    let comparison = earlier.map { BaselineComparison(report: report, baseline: $0, file: baseline ?? "") }
    let text =
      json
      ? String(
        decoding: report.json(
          process: outcome.process, reachable: analysis.reachable, analysis: analysis.figures,
          baseline: comparison), as: UTF8.self)
      : (Self.header(outcome.process) + report.textLines(baseline: comparison)
        + Self.reachableLines(analysis.reachable)).joined(separator: "\n")
    write(text + "\n")
    // The kinds a gate looks at: those holding a block of a --gate type, or all.
    let gateRules = Suppressions(patterns: gate).rules
    let gatedKinds = Set(
      report.graph.blocks.indices.filter { block in
        gate.isEmpty || gateRules.contains { $0.matches(report.graph.blocks[block]) }
      }.compactMap { report.kindOfBlock[$0] < 0 ? nil : report.kinds[report.kindOfBlock[$0]].id })
    let fails =
      comparison?.fails(threshold: threshold) { gatedKinds.contains($0.id) }
      ?? report.kinds.contains { gatedKinds.contains($0.id) }
    throw ExitCode(Self.exitStatus(process: outcome.process, hasLeaks: fails))
  }

  #if LEAKLAB_WITHOUT_LINT
    /// An instrumented build has no lint (see Package.swift).
    private func annotateSources(_ report: inout LeakReport) {
      if sources != nil { Self.fail("--sources needs `leaklab lint`, which this build leaves out") }
    }
  #else
    /// Each kind with what `leaklab lint` finds of its pattern in --sources.
    private func annotateSources(_ report: inout LeakReport) {
      guard let sources else { return }
      do {
        let findings = try Linter().lint(paths: [sources]).findings
        report.kinds = LeakKindSources.annotate(report.kinds, graph: report.graph, findings: findings)
      } catch let error as LintError {
        Self.fail("--sources: " + error.description)
      } catch {
        Self.fail("--sources: \(error)")
      }
    }
  #endif

  /// The kinds of the --baseline report (exits on a file that is none).
  private func loadBaseline() -> LeakBaseline? {
    guard let baseline else { return nil }
    guard let data = FileManager.default.contents(atPath: baseline) else {
      Self.fail("\(baseline): cannot read the baseline")
    }
    do {
      return try LeakBaseline.decode(data)
    } catch {
      Self.fail("\(baseline): \(error.description)")
    }
  }

  /// The program's status when it failed, else 1 for leaks and 0 without.
  static func exitStatus(process: CheckedProcess, hasLeaks: Bool) -> Int32 {
    if let ending = process.ending, ending.shellStatus != 0 { return ending.shellStatus }
    return hasLeaks ? 1 : 0
  }

  static func header(_ process: CheckedProcess) -> [String] {
    let name = URL(fileURLWithPath: process.executable).lastPathComponent
    let how = process.ending.map { "\($0)" } ?? "stopped and let go"
    return ["leaklab leaks: \(name) (pid \(process.pid)) \(how)"]
  }

  static func reachableLines(_ instances: [ReachableInstance]) -> [String] {
    guard !instances.isEmpty else { return [] }
    var lines = ["", "Still reachable at exit:"]
    for instance in instances {
      lines.append("   <\(instance.typeName) 0x\(String(instance.address, radix: 16)) \(instance.size) B>")
      lines += instance.path.map { "      \($0)" }
    }
    return lines
  }

  private func loadSuppressions() throws -> Suppressions {
    var rules = noDefaultSuppressions ? [] : Suppressions.libraryDefaults.rules
    for file in suppressionFiles {
      guard let text = SmallFile.text(file) else {
        Self.fail("\(file): cannot read the suppressions file")
      }
      do {
        rules += try Suppressions.parse(text, file: file).rules
      } catch {
        Self.fail(error.description)
      }
    }
    return Suppressions(rules: rules + Suppressions(patterns: ignore).rules)
  }

  /// The report, to stdout through ``CommandOutput`` (a failed write exits
  /// non-zero) or to the `--output` file.
  private func write(_ text: String) {
    guard let output else {
      CommandOutput.write(text)
      return
    }
    guard FileManager.default.createFile(atPath: output, contents: Data(text.utf8)) else {
      Self.fail("\(output): cannot write the report")
    }
  }

  static func warn(_ message: String) {
    CommandOutput.error(message)
  }

  static func fail(_ message: String) -> Never {
    warn(message)
    CommandOutput.exit(2)
  }
}
