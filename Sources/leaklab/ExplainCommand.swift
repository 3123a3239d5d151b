import ArgumentParser
import Foundation
import LeakLab
import Scenarios
import StepScripts

/// `leaklab explain ID --mode strong|weak`: why each leaked object is alive.
struct Explain: ParsableCommand {
  static let configuration = CommandConfiguration(
    abstract: "Run a scenario headless and print the retain path of each object it leaks.")

  @Argument(help: "A scenario id (see `leaklab list`).")
  var id: String

  @Option(help: "The form to run: strong (leaky) or weak (fixed).")
  var mode: ScenarioMode = .strong

  func run() throws {
    try MainActor.assumeIsolated { try runOnMainActor() }
  }

  @MainActor
  private func runOnMainActor() throws {
    guard let scenario = Catalogue.scenario(id: id) else {
      FileHandle.standardError.write(
        Data("leaklab: unknown scenario \"\(id)\" (see leaklab list)\n".utf8))
      throw ExitCode(2)
    }
    Self.explanation(of: scenario, mode: mode).forEach { print($0) }
  }

  /// Opens the scenario, runs its script, closes it, waits the grace delay, and
  /// describes what the detector found.
  @MainActor
  static func explanation(of scenario: Scenario, mode: ScenarioMode) -> [String] {
    let driver = HeadlessStepDriver()
    var commands: [StepCommand] = [.select(scenario.id), .mode(mode == .strong ? .strong : .weak), .open]
    let model = driver.model
    try? commands.forEach { try driver.perform($0) }
    for step in scenario.script {
      switch step {
      case .action(let index): try? driver.perform(.action(index + 1))
      case .alertAction(let title):
        if let index = model.state.phone?.alert?.actions.firstIndex(where: { $0.title == title }) {
          try? driver.perform(.alert(index + 1))
        }
      case .wait(let duration): try? driver.perform(.wait(duration))
      }
    }
    commands = [.close, .wait(.seconds(1))]
    try? commands.forEach { try driver.perform($0) }
    let report = model.state.report
    var lines = ["\(scenario.id) (\(mode.rawValue)): \(report.summaryLabel)"]
    if report.leaks.isEmpty {
      lines.append("  nothing outlived the screen: no cycle, no root path")
    }
    for leak in report.leaks {
      lines.append("  \(leak.name)")
      lines.append("    \(leak.retainPath ?? "no path found")")
      if !leak.folded.isEmpty { lines.append("    with: \(leak.folded.joined(separator: ", "))") }
    }
    return lines
  }
}

extension ScenarioMode: ExpressibleByArgument {}
