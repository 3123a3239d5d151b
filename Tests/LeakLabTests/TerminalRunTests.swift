import Foundation
import LeakLab
import LeakLabTestSupport
import Scenarios
import StepScripts
import TerminalAutomation
import Testing

/// `leaklab run --terminal` runs scripts side by side, each in its own tmux
/// session, and prints them in file order.
@Suite(.enabled(if: TmuxSession.isAvailable, "tmux is not installed (apt-get install tmux)"))
struct TerminalRunTests {
  /// The test's scripts, removed when it ends.
  let folder = TemporaryFolder("leaklab-terminal-run")

  func write(_ scripts: [(String, String)]) throws -> [String] {
    try scripts.map { name, text in try folder.write(text, to: name) }
  }

  /// Real time in the real app: an instrumented build (`make test-asan`,
  /// `make test-tsan`) on a busy machine has not reported the leak 1 s after
  /// `close`, so the scripts wait longer there.
  static let settle = Sanitizers.active == nil ? "1s" : "5s"

  @Test func scriptsRunSideBySideAndPrintInFileOrder() throws {
    let slow = "select delayed-dispatch\nmode weak\nopen\nwait 1500ms\nexpect clean\n"
    let fast =
      "select closure-capture\nmode strong\nopen\naction 1\nclose\nwait \(Self.settle)\nexpect contains \"FeedService#1\"\n"
    // The leak is waited for before `expect clean` fails on it: an `expect`
    // waits for its label to come, and a clean label is there before the
    // sweep reports the leak (a `wait 1s` in its place lost that race on a
    // loaded machine: the script passed, in a fresh-clone run while an ASan
    // build shared the cores).
    let failing =
      "select strong-delegate\nmode strong\nopen\naction 1\nclose\nexpect contains \"CheckoutScreen#1\"\nexpect clean\n"
    let paths = try write([
      ("a-slow.leaklab", slow), ("b-fast.leaklab", fast), ("c-failing.leaklab", failing),
    ])
    let run = try LeakLabBinary.run(["run", "--terminal", "--jobs", "3"] + paths)
    #expect(run.status == 1)
    let order = paths.compactMap { path in run.output.range(of: path)?.lowerBound }
    #expect(order.count == 3)
    #expect(order == order.sorted(), "\(run.output)")
    #expect(run.output.contains("FAILED: \(paths[2]):7: expect clean"))
    #expect(run.output.contains("actual:   \"Leaked: CheckoutScreen#1\""))
    #expect(run.output.hasSuffix("2 passed, 1 failed\n"))
  }

  @Test(arguments: ["0", "-2"])
  func jobsMustBePositive(jobs: String) throws {
    let run = try LeakLabBinary.run(["run", "--terminal", "--jobs", jobs, "x.leaklab"])
    #expect(run.status == 2)
    #expect(run.error.contains("--jobs must be at least 1"))
  }
}

/// The scripts with a person's timing: one per scenario, both forms, passing headless.
@MainActor
@Suite struct HumanTimingScriptTests {
  nonisolated static let directory = packageRoot.appendingPathComponent("Scenarios/Scripts/human-timing")

  nonisolated static let files: [String] =
    ((try? FileManager.default.contentsOfDirectory(atPath: directory.path)) ?? [])
    .filter { $0.hasSuffix(".leaklab") }.sorted()

  @Test func thereIsOnePerScenario() {
    #expect(Self.files == Catalogue.all.map { "\($0.id).leaklab" }.sorted())
  }

  @Test(arguments: files)
  func eachRunsBothFormsWithPausesAndPasses(file: String) throws {
    let text = try String(contentsOf: Self.directory.appendingPathComponent(file), encoding: .utf8)
    let script = try StepScriptParser.parse(text, file: file)
    let commands = script.steps.map(\.command)
    #expect(commands.contains(.mode(.strong)) && commands.contains(.mode(.weak)))
    // A pause between the last tap and the close, in both forms.
    let closes = commands.indices.filter { commands[$0] == .close }
    #expect(closes.count == 2)
    for close in closes {
      guard case .wait = commands[close - 1] else {
        Issue.record("\(file): no pause before the close at step \(close)")
        continue
      }
    }
    let result = try StepRunner.run(script, on: HeadlessStepDriver())
    #expect(result.passed, "\(StepReport.lines(for: result).joined(separator: "\n"))")
  }
}
