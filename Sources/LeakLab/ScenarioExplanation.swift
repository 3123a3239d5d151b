import GraphLayout
import LeakDetector
import RetainGraph
import RetainGraphDrawing
import Scenarios
import StepScripts
import TextGrid

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

  /// Opens the scenario in `mode`, runs its script, closes it and waits the
  /// grace delay. `rootPathSearch` as in ``AppModel``: `leaklab explain`
  /// searches memory for paths from true roots; tests leave it off (their
  /// process's roots are the test harness's).
  public init(_ scenario: Scenario, mode: ScenarioMode, rootPathSearch: RootPathSearch = .off) {
    self.scenario = scenario
    self.mode = mode
    let driver = HeadlessStepDriver(rootPathSearch: rootPathSearch)
    Self.drive(scenario, mode: mode, on: driver)
    summaryLabel = driver.model.state.report.summaryLabel
    leaks = driver.model.state.report.leaks
    explanations = driver.model.explanations
  }

  /// The app's explain view (`e`) on the first leak of a run of `scenario`
  /// in `mode`, as the app draws it in a terminal of `size`, one line per row
  /// (`leaklab explain --view`, with `rootPathSearch` at detection).
  ///
  /// Print it from a process of its own: a root path through C memory depends
  /// on what else the process holds (another run's armed dispatch timers
  /// change libdispatch's timer heap), so a fresh process draws the same
  /// picture every time.
  ///
  /// ```swift
  /// print(ScenarioExplanation.view(of: Catalogue.dispatchSourceTimer, mode: .strong, size: Size(width: 80, height: 24)))
  /// ```
  public static func view(
    of scenario: Scenario, mode: ScenarioMode, size: Size, rootPathSearch: RootPathSearch = .off
  ) -> String {
    let driver = HeadlessStepDriver(rootPathSearch: rootPathSearch)
    drive(scenario, mode: mode, on: driver)
    driver.model.send(.explainKeyPressed)
    return driver.model.frame(for: size).lines.joined(separator: "\n") + "\n"
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
      if let explanation = explanations.first(where: { $0.object.name == leak.name }),
        let look = explanation.whereToLook
      {
        lines.append("    \(look)")
      }
      if !leak.folded.isEmpty { lines.append("    with: \(leak.folded.joined(separator: ", "))") }
      if let site = leak.allocationSite { lines.append("    \(site)") }
    }
    return lines
  }
}
