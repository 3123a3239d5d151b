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

  // `.unconditional`: `--width -3` is a bad width (said by `validate`), not a missing one.
  @Option(parsing: .unconditional, help: "The width the text drawing fits, in columns (at least 20).")
  var width = 80

  @Flag(help: "Print the app's explain view (`e`) instead, as drawn in a terminal of --width × --height.")
  var view = false

  @Option(
    parsing: .unconditional,
    help: "The height of the terminal the explain view (--view) is drawn in, in rows (at least 10).")
  var height = 24

  func validate() throws {
    guard width >= 20 else { throw ValidationError("--width must be at least 20 columns, not \(width)") }
    guard height >= 10 else { throw ValidationError("--height must be at least 10 rows, not \(height)") }
  }

  @Flag(help: "Run with the allocation recorder preloaded: each leak says where it was allocated.")
  var stacks = false

  func run() throws {
    if stacks { RecorderPreload.relaunchRecording() }
    try MainActor.assumeIsolated { try runOnMainActor() }
  }

  @MainActor
  private func runOnMainActor() throws {
    guard let scenario = Catalogue.scenario(id: id) else {
      CommandOutput.error("unknown scenario \(DisplayText.quoted(id)) (see leaklab list)")
      throw ExitCode(2)
    }
    if view {
      let size = Size(width: width, height: height)
      CommandOutput.write(
        ScenarioExplanation.view(of: scenario, mode: mode, size: size, rootPathSearch: .atDetection))
      return
    }
    CommandOutput.write(
      try ScenarioExplanation(scenario, mode: mode, rootPathSearch: .atDetection).output(
        format, width: width))
  }

}

extension ScenarioMode: ExpressibleByArgument {}
extension ScenarioExplanation.Format: ExpressibleByArgument {}
