import ArgumentParser
import Foundation
import LeakLab
import Scenarios
import StepScripts
import TerminalAutomation

/// `leaklab run FILE…`: step scripts, headless or against the real app.
struct Run: ParsableCommand {
  static let configuration = CommandConfiguration(
    abstract: "Run step scripts, printing the summary label after every step.",
    discussion: """
      Exits 0 when every script passes, 1 when an expectation fails, 2 for \
      malformed input (file:line: message) or a file that cannot be read, 74 when \
      the report cannot be written.
      """)

  @Flag(help: "Run against the real app in a pseudo-terminal (tmux), in real time.")
  var terminal = false

  @Option(
    parsing: .unconditional,
    help: "With --terminal: how many scripts run side by side, each in its own tmux session.")
  var jobs = 8

  @Argument(help: "Step script files (.leaklab).")
  var files: [String]

  func validate() throws {
    guard jobs >= 1 else { throw ValidationError("--jobs must be at least 1") }
  }

  func run() throws {
    try MainActor.assumeIsolated { try runOnMainActor() }
  }

  @MainActor
  private func runOnMainActor() throws {
    var scripts: [StepScript] = []
    for file in files {
      do throws(StepScriptError) {
        scripts.append(try StepScriptParser.parse(try ScriptFile.read(file), file: file))
      } catch {
        throw fail(error.description)
      }
    }
    let results: [ScriptResult]
    do {
      results = try runAll(scripts)
    } catch {
      throw fail(error.description)
    }
    CommandOutput.line(StepReport.summary(results))
    if !results.allSatisfy(\.passed) { throw ExitCode(1) }
  }

  /// Runs every script, printing each one's steps and labels as it finishes
  /// (in the terminal, side by side, each printed in file order).
  @MainActor
  private func runAll(_ scripts: [StepScript]) throws(StepScriptError) -> [ScriptResult] {
    guard terminal else {
      var results: [ScriptResult] = []
      for script in scripts {
        let result = try StepRunner.run(script, on: HeadlessStepDriver())
        CommandOutput.lines(StepReport.lines(for: result))
        results.append(result)
      }
      return results
    }
    let outcomes = TerminalScriptRunner.run(
      scripts, executable: Self.executablePath, scenarioIDs: Catalogue.all.map(\.id), jobs: jobs
    ) { outcome in
      if case .success(let result) = outcome {
        CommandOutput.lines(StepReport.lines(for: result))
      }
    }
    return try outcomes.map { outcome throws(StepScriptError) in try outcome.get() }
  }

  private static var executablePath: String {
    (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe")) ?? CommandLine.arguments[0]
  }

  private func fail(_ message: String) -> ExitCode {
    CommandOutput.errorLine(message)
    return ExitCode(2)
  }
}
