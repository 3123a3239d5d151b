import GraphLayout
import LeakDetector
import RetainGraph
import RetainGraphDrawing
import Scenarios
import StepScripts

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
  /// The app the scenario ran in, for the explain view (``Format/view``).
  let model: AppModel

  /// Opens the scenario in `mode`, runs its script, closes it and waits the grace delay.
  public init(_ scenario: Scenario, mode: ScenarioMode) {
    self.scenario = scenario
    self.mode = mode
    let driver = HeadlessStepDriver()
    Self.drive(scenario, mode: mode, on: driver)
    summaryLabel = driver.model.state.report.summaryLabel
    leaks = driver.model.state.report.leaks
    explanations = driver.model.explanations
    model = driver.model
  }

  /// Opens `scenario` in `mode` on the driver's app, runs its script, closes
  /// it and waits the grace delay, as a user would with keys.
  static func drive(_ scenario: Scenario, mode: ScenarioMode, on driver: HeadlessStepDriver) {
    let model = driver.model
    func perform(_ command: StepCommand) { try? driver.perform(command) }
    perform(.select(scenario.id))
    perform(.mode(mode == .strong ? .strong : .weak))
    perform(.open)
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
