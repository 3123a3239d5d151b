import ArgumentParser
import Foundation
import LeakLab
import Scenarios
import StepScripts
import TextGrid

/// `leaklab explain ID --mode strong|weak --format text|dot|mermaid|json [--view]`:
/// why each leaked object is alive, as paths and a picture, or as a graph for other tools.
struct Explain: ParsableCommand {
  static let configuration = CommandConfiguration(
    abstract: "Run a scenario headless and print the retain path of each object it leaks.")

  @Argument(help: "A scenario id (see `leaklab list`).")
  var id: String

  @Option(help: "The form to run: strong (leaky) or weak (fixed).")
  var mode: ScenarioMode = .strong

  @Option(
    help: """
      text: the retain paths and the graph drawn in the terminal; dot: Graphviz (pipe to `dot -Tsvg`); \
      mermaid: a Mermaid flowchart; json: the leaks and the graph.
      """)
  var format: ScenarioExplanation.Format = .text

  @Option(help: "The width the text drawing fits, in columns.")
  var width = 80

  @Flag(help: "Print the app's explain view (`e`) instead, as drawn in a terminal of --width × --height.")
  var view = false

  @Option(help: "The height of the terminal the explain view (--view) is drawn in, in rows.")
  var height = 24

  func run() throws {
    try MainActor.assumeIsolated { try runOnMainActor() }
  }

  @MainActor
  private func runOnMainActor() throws {
    guard let scenario = Catalogue.scenario(id: id) else {
      CommandOutput.error("unknown scenario \(DisplayText.quoted(id)) (see leaklab list)")
      throw ExitCode(2)
    }
    if view {
      let size = Size(width: max(20, width), height: max(10, height))
      CommandOutput.write(
        ScenarioExplanation.view(of: scenario, mode: mode, size: size, rootPathSearch: .atDetection))
      return
    }
    CommandOutput.write(
      try ScenarioExplanation(scenario, mode: mode, rootPathSearch: .atDetection).output(
        format, width: max(20, width)))
  }

}

extension ScenarioMode: ExpressibleByArgument {}
extension ScenarioExplanation.Format: ExpressibleByArgument {}
