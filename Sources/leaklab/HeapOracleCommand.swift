import ArgumentParser
import Dispatch
import Foundation
import LeakLabLocking

/// `leaklab heap-oracle`: `leaklab heap` checked against the growth
/// fixtures' own counts of their live objects — GrowingHeap (built beside
/// leaklab) and, with `--servers DIR`, the Hummingbird servers of
/// Tools/ServerFixtures — each leaky and fixed, at exit and running. The
/// rules are in ``HeapOracleRun``.
struct HeapOracleCommand: ParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "heap-oracle",
    abstract: "Check `leaklab heap` against the growth fixtures' own counts, at exit and with --pid.",
    discussion: """
      Runs each growth fixture leaky and fixed: its census at exit must count what the program counts \
      itself; running, a diff across REQUESTS requests must name the kept type, its exact growth and a \
      path from the program's global (leaky), or nothing of the program's own (fixed), and the program \
      must still answer afterwards. Exits with status 1 on any disagreement, 2 if a fixture is missing.
      """
  )

  @Option(
    help: ArgumentHelp(
      "Also the Hummingbird server fixtures built in this directory (Tools/ServerFixtures/.build/debug).",
      valueName: "directory"))
  var servers: String?

  @Option(help: "Requests between the two censuses of a running fixture.")
  var requests = 200

  func validate() throws {
    if requests < 1 { throw ValidationError("--requests needs a positive count") }
  }

  /// GrowingHeap's three patterns, and the server fixture that keeps the same way.
  static let patterns:
    [(pattern: String, server: String, type: String, global: String, serverGlobal: String, fixedKeeps: Int)] =
      [
        ("audit", "AuditTrail", "AuditRecord", "auditTrail", "auditTrail", 10),
        ("cache", "ResponseCache", "CachedResponse", "responseCache", "responseCache", 10),
        ("observers", "ObserverList", "RequestSession", "eventHub", "configurationHub", 0),
      ]

  func run() throws {
    let directory = URL(
      fileURLWithPath: try FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe")
    )
    .deletingLastPathComponent()
    let growingHeap = directory.appendingPathComponent("GrowingHeap").path
    guard FileManager.default.isExecutableFile(atPath: growingHeap) else {
      OracleCommand.fail("\(growingHeap) is missing (build it: swift build --product GrowingHeap)")
    }
    var programs: [HeapOracleRun.Program] = []
    for entry in Self.patterns {
      for form in ["leaky", "fixed"] {
        programs.append(
          .init(
            name: "GrowingHeap \(entry.pattern)", form: form, executable: growingHeap,
            arguments: [entry.pattern, form], module: "GrowingHeap", type: entry.type, global: entry.global,
            fixedKeeps: entry.fixedKeeps))
      }
    }
    if let servers {
      for entry in Self.patterns {
        let path = URL(fileURLWithPath: servers).appendingPathComponent(entry.server).path
        guard FileManager.default.isExecutableFile(atPath: path) else {
          OracleCommand.fail("\(path) is missing (build it: cd Tools/ServerFixtures && swift build)")
        }
        for form in ["leaky", "fixed"] {
          programs.append(
            .init(
              name: entry.server, form: form, executable: path, arguments: [form], module: entry.server,
              type: entry.type, global: entry.serverGlobal, fixedKeeps: entry.fixedKeeps))
        }
      }
    }
    let leaklab = directory.appendingPathComponent("leaklab").path
    let judged = programs
    let requests = requests
    let results = Locked<[HeapOracleRun?]>(Array(repeating: nil, count: programs.count))
    DispatchQueue.concurrentPerform(iterations: programs.count) { index in
      let run = HeapOracleRun.judge(judged[index], leaklab: leaklab, requests: requests)
      results.withLock { $0[index] = run }
    }
    let runs = results.withLock { $0 }.compactMap { $0 }
    CommandOutput.lines(Self.report(runs, requests: requests))
    if runs.contains(where: { !$0.agrees }) { throw ExitCode.failure }
  }

  static func report(_ runs: [HeapOracleRun], requests: Int) -> [String] {
    let header = [
      "program", "form", "at exit: census = own count", "diff over \(requests) requests", "path to a new one",
      "answers after", "agree",
    ]
    var lines = tableLines(
      header: header,
      rows: runs.map {
        [
          $0.program.name, $0.program.form, $0.exitColumn, $0.diffColumn, $0.pathColumn,
          $0.answeredAfter ? "yes" : "NO", $0.agrees ? "yes" : "NO",
        ]
      })
    for run in runs where !run.agrees {
      lines.append("\(run.program.name) (\(run.program.form)): \(run.problems.joined(separator: "; "))")
    }
    let disagreeing = runs.count { !$0.agrees }
    lines.append("")
    lines.append(
      disagreeing == 0
        ? "\(runs.count) of \(runs.count) runs: leaklab heap agrees with the programs' own counts."
        : "\(disagreeing) of \(runs.count) runs: leaklab heap disagrees with the programs' own counts.")
    return lines
  }
}
