import ArgumentParser
import Dispatch
import Foundation
import LeakLabLocking
import MemcheckOracle
import Scenarios

/// `leaklab leaks-oracle`: `leaklab leaks` checked against valgrind memcheck
/// on the same programs — the leak fixtures in both forms and, with
/// `--catalogue`, every catalogue scenario through `LeakLabProbe`.
///
/// Each program runs twice: once under `leaklab leaks` (as a child process,
/// so its ptrace waits see no other children), once under memcheck. The rules
/// are in ``LeaksOracleRow``.
struct LeaksOracleCommand: ParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "leaks-oracle",
    abstract: "Check `leaklab leaks` against valgrind memcheck on the leak fixtures (and the catalogue).",
    discussion: """
      Runs each leak fixture (Tools/LeakFixtures, built beside leaklab), leaky and fixed, under \
      `leaklab leaks` and under valgrind memcheck, and compares what each finds unreachable at exit. \
      Exits with status 1 if they disagree on any run, 2 if valgrind or a fixture is missing.
      """
  )

  @Flag(help: "Also every catalogue scenario, strong and weak, through LeakLabProbe.")
  var catalogue = false

  @Option(
    help: ArgumentHelp(
      "Also the SwiftNIO and Hummingbird server fixtures built in this directory (Tools/ServerFixtures/.build/debug).",
      valueName: "directory"))
  var servers: String?

  /// The server fixtures (leaky and fixed, 20 requests each), whether memcheck's
  /// classes and blocks are compared (not for a leak that is a task suspended
  /// for ever: see ``LeaksOracleRow``), and the server that leaks nothing.
  static let serverFixtures: [(name: String, comparesMemcheck: Bool)] = [
    ("ContextHandler", true), ("KeepaliveTimer", true), ("CallTransport", true), ("SocketCallbacks", true),
    ("SubscriptionTask", false),
  ]

  /// The fixtures, in the order of the README's table.
  static let fixtures = [
    "FeedCycle", "OperationCompletion", "TimerBlock", "NotificationObserver", "DispatchWorkItemCycle",
    "DispatchDataSource", "CombineSink",
  ]

  func run() throws {
    guard let memcheck = Memcheck.locate() else {
      OracleCommand.fail("valgrind not found on PATH (install it: apt-get install valgrind)")
    }
    let directory = URL(
      fileURLWithPath: try FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe")
    )
    .deletingLastPathComponent()
    var programs: [LeaksOracleRow.Program] = []
    for fixture in Self.fixtures {
      let path = directory.appendingPathComponent(fixture).path
      guard FileManager.default.isExecutableFile(atPath: path) else {
        OracleCommand.fail("\(path) is missing (build it: swift build --product \(fixture))")
      }
      for form in ["leaky", "fixed"] {
        programs.append(
          .init(name: fixture, form: form, command: [path, form], modules: [fixture], comparesBlocks: true))
      }
    }
    let strippedCopies = FileManager.default.temporaryDirectory.appendingPathComponent(
      "leaklab-oracle-servers-\(getpid())")
    defer { try? FileManager.default.removeItem(at: strippedCopies) }
    if let servers {
      try FileManager.default.createDirectory(at: strippedCopies, withIntermediateDirectories: true)
      programs += try Self.serverPrograms(in: servers, strippedInto: strippedCopies.path)
    }
    if catalogue {
      let probe = try OracleCommand.probeExecutable()
      for scenario in Catalogue.all {
        for mode in ["strong", "weak"] {
          programs.append(
            .init(
              name: "catalogue: \(scenario.id)", form: mode, command: [probe, scenario.id, "--mode", mode],
              modules: OracleCommand.watchedModules, comparesBlocks: false))
        }
      }
    }
    let leaklab = directory.appendingPathComponent("leaklab").path
    let judged = programs
    let results = Locked<[Result<LeaksOracleRow, any Error>?]>(Array(repeating: nil, count: programs.count))
    DispatchQueue.concurrentPerform(iterations: programs.count) { index in
      let row = Result { try LeaksOracleRow.judge(judged[index], leaklab: leaklab, memcheck: memcheck) }
      results.withLock { $0[index] = row }
    }
    let rows = try results.withLock { $0 }.map { try $0!.get() }
    CommandOutput.lines(Self.report(rows))
    if rows.contains(where: { !$0.agrees }) { throw ExitCode.failure }
  }

  /// Each server fixture in `directory`, leaky and fixed, and the server
  /// that leaks nothing; memcheck runs a stripped copy of each.
  static func serverPrograms(in directory: String, strippedInto copies: String) throws
    -> [LeaksOracleRow.Program]
  {
    var programs: [LeaksOracleRow.Program] = []
    // HelloServer has no leak to fix: its one form is the fixed one.
    let all =
      serverFixtures.map { ($0.name, $0.comparesMemcheck, ["leaky", "fixed"]) } + [
        ("HelloServer", true, ["fixed"])
      ]
    for (name, comparesMemcheck, forms) in all {
      let path = URL(fileURLWithPath: directory).appendingPathComponent(name).path
      guard FileManager.default.isExecutableFile(atPath: path) else {
        OracleCommand.fail("\(path) is missing (build it: make server-fixtures)")
      }
      let stripped = URL(fileURLWithPath: copies).appendingPathComponent(name).path
      let strip = Process()
      strip.executableURL = URL(fileURLWithPath: "/usr/bin/env")
      strip.arguments = ["strip", "--strip-debug", "-o", stripped, path]
      try strip.run()
      strip.waitUntilExit()
      let memcheckPath = strip.terminationStatus == 0 ? stripped : path
      for form in forms {
        programs.append(
          .init(
            name: name, form: form, command: [path, form], modules: [name], comparesBlocks: comparesMemcheck,
            comparesClasses: comparesMemcheck, memcheckCommand: [memcheckPath, form]))
      }
    }
    return programs
  }

  static func report(_ rows: [LeaksOracleRow]) -> [String] {
    let showsLive = rows.contains { !$0.liveCounts.isEmpty }
    let header =
      ["program", "form", "leaklab leaks (unreachable at exit)", "memcheck (lost at exit)"]
      + (showsLive ? ["own count = leaked"] : []) + ["agree"]
    let lines = tableLines(
      header: header,
      rows: rows.map {
        [$0.program.name, $0.program.form, $0.leaksColumn, $0.memcheckColumn]
          + (showsLive ? [$0.liveColumn] : []) + [$0.agrees ? "yes" : "NO"]
      })
    let disagreeing = rows.count { !$0.agrees }
    let summary =
      disagreeing == 0
      ? "\(rows.count) of \(rows.count) runs: leaklab leaks and memcheck agree."
      : "\(disagreeing) of \(rows.count) runs: leaklab leaks and memcheck disagree."
    return lines + ["", summary]
  }
}
