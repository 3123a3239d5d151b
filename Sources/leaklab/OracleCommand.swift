import ArgumentParser
import Dispatch
import Foundation
import LeakClock
import LeakLab
import LeakLabLocking
import MemcheckOracle
import Scenarios
import StepScripts

/// `leaklab oracle [ID…] [--mode M]`: LeakLab's verdicts checked against
/// valgrind memcheck, a judge nobody on the team wrote.
///
/// Each scenario runs under memcheck (`LeakLabProbe`, built beside `leaklab`)
/// until one grace delay after the close; the probe prints what the detector
/// claimed, and
/// memcheck reports, at exit, which of the scenario's objects are still
/// allocated and whether anything reachable holds them. A run with a leak is
/// probed a second time until the end of the observation time, where
/// temporary leaks must be gone. Why each leak is alive (cycle, root) comes
/// from the same run in this process, where the retain-path explainer works.
/// ``OracleComparison`` holds the rules.
struct OracleCommand: ParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "oracle",
    abstract: "Check LeakLab's verdicts against valgrind memcheck (needs valgrind and a debug build).",
    discussion: """
      Runs each scenario under valgrind and compares the objects memcheck finds still allocated \
      with the leaks the detector reported. Exits with status 1 if the two disagree on any run, \
      2 if valgrind is missing or an id is unknown. About 2–3 s per run.
      """
  )

  @Argument(help: "Scenario ids (see `leaklab list`); every scenario by default.")
  var ids: [String] = []

  @Option(help: "Only this form: strong (leaky) or weak (fixed). Both by default.")
  var mode: ScenarioMode?

  /// The modules whose objects memcheck's report is searched for.
  static let watchedModules: Set<String> = ["Scenarios", "ScreenKit"]
  /// The modules of the checking code, which must not leak themselves.
  static let detectorModules: Set<String> = ["LeakDetector", "LeakClock"]

  func run() throws {
    var scenarios: [Scenario] = []
    for id in ids {
      guard let scenario = Catalogue.scenario(id: id) else {
        Self.fail("unknown scenario \(DisplayText.quoted(id)) (see leaklab list)")
      }
      scenarios.append(scenario)
    }
    guard let memcheck = Memcheck.locate() else {
      Self.fail("valgrind not found on PATH (install it: apt-get install valgrind)")
    }
    if scenarios.isEmpty { scenarios = Catalogue.all }
    let modes = mode.map { [$0] } ?? [.strong, .weak]
    let runs = scenarios.flatMap { scenario in modes.map { (scenario: scenario, mode: $0) } }
    let probe = try Self.probeExecutable()
    let paths = MainRunLoop.run {
      var paths: [[String: DetectorClaim.Leak.Path]] = []
      for run in runs { paths.append(await Self.retainPathKinds(run.scenario, mode: run.mode)) }
      return paths
    }

    let results = Locked<[Result<OracleRow, any Error>?]>(Array(repeating: nil, count: runs.count))
    DispatchQueue.concurrentPerform(iterations: runs.count) { index in
      let (scenario, mode) = runs[index]
      let row = Result {
        try OracleRow.judge(scenario.id, mode: mode, paths: paths[index], memcheck: memcheck, probe: probe)
      }
      results.withLock { $0[index] = row }
    }
    let rows = try results.withLock { $0 }.map { try $0!.get() }
    CommandOutput.lines(Self.report(rows))
    if rows.contains(where: { !$0.comparison.agrees }) { throw ExitCode.failure }
  }

  static func report(_ rows: [OracleRow]) -> [String] {
    let header = ["scenario", "mode", "LeakLab (1 s after close)", "memcheck (same moment)", "agree"]
    let lines = tableLines(
      header: header,
      rows: rows.map {
        [$0.id, $0.mode.rawValue, $0.detectorColumn, $0.memcheckColumn, $0.comparison.agrees ? "yes" : "NO"]
      })
    let disagreements = rows.flatMap { row in
      row.comparison.disagreements.map { "\(row.id) (\(row.mode.rawValue)): \($0)" }
    }
    let disagreeing = rows.count { !$0.comparison.agrees }
    let summary =
      disagreeing == 0
      ? "\(rows.count) of \(rows.count) runs: LeakLab and memcheck agree."
      : "\(disagreeing) of \(rows.count) runs: LeakLab and memcheck disagree."
    return lines + (disagreements.isEmpty ? [] : [""] + disagreements) + ["", summary]
  }

  /// `LeakLabProbe`, built into the same folder as this program.
  static func probeExecutable() throws -> String {
    let ownPath = try FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe")
    let probe = URL(fileURLWithPath: ownPath).deletingLastPathComponent().appendingPathComponent(
      "LeakLabProbe"
    ).path
    guard FileManager.default.isExecutableFile(atPath: probe) else {
      fail("\(probe) is missing (build it: swift build --product LeakLabProbe)")
    }
    return probe
  }

  /// Why each leak of a run is alive, by type: the run made in this process
  /// with the app's retain-path explainer.
  @MainActor
  static func retainPathKinds(_ scenario: Scenario, mode: ScenarioMode) async -> [String: DetectorClaim.Leak
    .Path]
  {
    let scheduler = ManualScheduler()
    let harness = ScenarioHarness(scheduler: scheduler)
    let paths = Locked<[String: DetectorClaim.Leak.Path]>([:])
    harness.explainRetainPaths { explanation in
      let path: DetectorClaim.Leak.Path =
        switch explanation.verdict {
        case .cycle: .cycle
        case .heldByRoot: .root
        case .notVisible: .notVisible
        }
      paths.withLock { paths in
        if paths[explanation.object.typeName] == nil { paths[explanation.object.typeName] = path }
      }
    }
    await ScenarioRunner.drive(scenario, mode: mode, on: harness, scheduler: scheduler, until: .grace)
    return paths.withLock { $0 }
  }

  static func fail(_ message: String) -> Never {
    CommandOutput.error(message)
    CommandOutput.exit(2)
  }
}

/// One scenario in one mode, judged by both.
struct OracleRow: Sendable {
  var id: String
  var mode: ScenarioMode
  var atGrace: DetectorClaim
  var memcheckAtGrace: MemcheckFindings
  var atEnd: (claim: DetectorClaim, memcheck: MemcheckFindings)?
  var comparison: OracleComparison

  /// Runs the probe under memcheck once, and a second time to the end of the
  /// run when the detector reported a leak.
  static func judge(
    _ id: String, mode: ScenarioMode, paths: [String: DetectorClaim.Leak.Path], memcheck: Memcheck,
    probe executable: String
  ) throws -> OracleRow {
    func probe(_ moment: ScenarioRunner.Moment) throws -> (DetectorClaim, MemcheckFindings) {
      let run = try memcheck.run(
        executable, arguments: [id, "--mode", mode.rawValue, "--until", moment.rawValue])
      guard run.status == 0, let line = run.output.split(separator: "\n").last,
        var claim = try? JSONDecoder().decode(DetectorClaim.self, from: Data(line.utf8))
      else {
        throw Memcheck.Failure(
          description: "the probe for \(id) (\(mode.rawValue)) failed with status \(run.status)")
      }
      for index in claim.leaks.indices { claim.leaks[index].path = paths[claim.leaks[index].typeName] }
      let findings = MemcheckFindings(
        records: run.records, modules: OracleCommand.watchedModules, ownModules: OracleCommand.detectorModules
      )
      return (claim, findings)
    }
    let (claim, findings) = try probe(.grace)
    let end = claim.leaks.isEmpty ? nil : try probe(.end)
    var comparison = OracleComparison(atGrace: claim, memcheck: findings, atEnd: end)
    if mode == .strong, Catalogue.scenario(id: id)?.detectorBlindSpot != nil {
      // A mistake no leak detector sees (a task polling for a freed screen, a
      // freed object an `unowned` capture keeps the memory of): the detector
      // is rightly clean, and memcheck must find what the mistake keeps.
      comparison.disagreements.removeAll { $0.hasPrefix("clean, but memcheck found") }
      if findings.alive.isEmpty {
        comparison.disagreements.append("a blind spot, but memcheck found nothing of it allocated either")
      }
    }
    return OracleRow(
      id: id, mode: mode, atGrace: claim, memcheckAtGrace: findings, atEnd: end, comparison: comparison)
  }

  /// `FeedService (cycle), LoadFeedUseCase (cycle)`; `SyncScreen (root), resolved later`; `clean`.
  var detectorColumn: String {
    guard !atGrace.leaks.isEmpty else { return "clean" }
    let leaks = atGrace.leaks.map { "\($0.typeName) (\($0.path?.rawValue ?? "not explained"))" }.sorted()
    let resolved = atEnd.map { !$0.claim.leaks.isEmpty && $0.claim.openTypes.isEmpty } ?? false
    return leaks.joined(separator: ", ") + (resolved ? "; resolved later" : "")
  }

  /// `unreachable: FeedService, LoadFeedUseCase (+2 parts)`; `nothing allocated`.
  var memcheckColumn: String {
    guard !memcheckAtGrace.alive.isEmpty else { return "nothing allocated" }
    let reported = Set(atGrace.leaks.map(\.typeName))
    let groups = Dictionary(grouping: reported.filter { memcheckAtGrace.alive[$0] != nil }.sorted()) {
      memcheckAtGrace.alive[$0]!
    }
    var parts = [MemcheckFindings.Reachability.unreachable, .reachable].compactMap { reachability in
      groups[reachability].map { "\(reachability.rawValue): \($0.joined(separator: ", "))" }
    }
    let others = memcheckAtGrace.alive.keys.filter { !reported.contains($0) }.sorted()
    if !others.isEmpty { parts.append("+ \(others.joined(separator: ", "))") }
    if let end = atEnd, end.memcheck.alive.isEmpty { parts.append("all freed by the end") }
    return parts.joined(separator: "; ")
  }
}
