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
      CommandOutput.error("unknown scenario \(DisplayText.quoted(id)) (see leaklab list)")
      throw ExitCode(2)
    }
    CommandOutput.lines(ScenarioExplanation(scenario, mode: mode).lines)
  }

}

extension ScenarioMode: ExpressibleByArgument {}
