import GraphLayout
import LeakDetector
import RetainGraph
import RetainGraphDrawing
import Scenarios
import StepScripts
import Synchronization

/// Why a scenario's leaked objects are alive: the scenario run headless, then
/// each leaked instance with its retain path (`leaklab explain`).
///
/// ```swift
/// let explanation = ScenarioExplanation(Catalogue.strongDelegate, mode: .strong)
/// explanation.leaks.first?.retainPath
/// // "retain cycle: CheckoutScreen#1 → rootView: View#1 → … → delegate: CheckoutScreen#1 (strong)"
/// ```
@MainActor
public struct ScenarioExplanation {
  /// The scenario explained.
  public let scenario: Scenario
  /// The form it ran in.
  public let mode: ScenarioMode
  /// The summary label one grace delay after the screen closed.
  public let summaryLabel: String
  /// What the detector reported, with retain paths.
  public let leaks: [LeakedInstance]
  /// RetainGraph's explanation of each leak, in the order they were made.
  public let explanations: [Explanation]

  /// Opens the scenario in `mode`, runs its script, closes it and waits the grace delay.
  public init(_ scenario: Scenario, mode: ScenarioMode) {
    self.scenario = scenario
    self.mode = mode
    let driver = HeadlessStepDriver()
    let model = driver.model
    func perform(_ command: StepCommand) { try? driver.perform(command) }
    perform(.select(scenario.id))
    perform(.mode(mode == .strong ? .strong : .weak))
    perform(.open)
    // The same explainer the app installs, also keeping each explanation whole.
    let explained = Mutex<[Explanation]>([])
    model.harness.explainRetainPaths { explanation in explained.withLock { $0.append(explanation) } }
    for step in scenario.script {
      switch step {
      case .action(let index): perform(.action(index + 1))
      case .alertAction(let title):
        if let index = model.state.phone?.alert?.actions.firstIndex(where: { $0.title == title }) {
          perform(.alert(index + 1))
        }
      case .wait(let duration): perform(.wait(duration))
      }
    }
    perform(.close)
    perform(.wait(.seconds(1)))
    summaryLabel = model.state.report.summaryLabel
    leaks = model.state.report.leaks
    explanations = explained.withLock { $0 }
  }

  /// The run's leaks as one graph: their cycles and root paths, shared objects drawn once.
  public var graph: ReferenceGraph {
    ReferenceGraph(explanations: explanations)
  }

  /// The text `leaklab explain` prints.
  public var lines: [String] {
    var lines = ["\(scenario.id) (\(mode.rawValue)): \(summaryLabel)"]
    if leaks.isEmpty {
      lines.append("  nothing outlived the screen: no cycle, no root path")
    }
    for leak in leaks {
      lines.append("  \(leak.name)")
      lines.append("    \(leak.retainPath ?? "no path found")")
      if !leak.folded.isEmpty { lines.append("    with: \(leak.folded.joined(separator: ", "))") }
    }
    return lines
  }
}
