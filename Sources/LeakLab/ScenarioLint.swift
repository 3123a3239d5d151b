import LeakDetector
import Scenarios

/// What `leaklab lint` says about the form of a scenario the code pane shows,
/// beside what the detector found when that form last ran:
/// `lint: method reference stores self — confirmed: leaked`.
///
/// The findings are recorded (``recorded``, in `ScenarioLint+Recorded.swift`)
/// from the lint run on each scenario's two forms; LeakLintTests re-runs the
/// lint and fails when the record is stale, so the app shows what the lint
/// really says without parsing sources at run time.
///
/// ```swift
/// let lint = ScenarioLint(entry: entry, mode: .strong)!
/// lint.flaggedLines   // ["service.run(completion: handleResponse)"]
/// lint.status(in: state)  // "lint: method reference stores self — open and close it to check"
/// ```
public struct ScenarioLint: Equatable, Sendable {
  /// One recorded finding: the rule, its short title, and the flagged line's code.
  public struct Finding: Equatable, Sendable {
    public var rule: String
    public var title: String
    public var line: String
  }

  /// The findings for this scenario in this form (none for every fixed form).
  public var findings: [Finding]
  private let scenarioID: String
  private let mode: ScenarioMode
  /// The leaky form of a scenario whose mistake no detector sees (`task-zombie`).
  private let isBlindSpot: Bool

  /// The lint's findings for `entry` in `mode`; `nil` for a scenario the
  /// lint was not run on (one not in the catalogue).
  public init?(entry: CatalogueEntry, mode: ScenarioMode) {
    guard let findings = Self.recorded["\(entry.id)/\(mode.rawValue)"] else { return nil }
    scenarioID = entry.id
    self.mode = mode
    isBlindSpot = mode == .strong && entry.detectorBlindSpot != nil
    self.findings = findings
  }

  /// The code of the flagged lines, as shown (trimmed).
  public var flaggedLines: Set<String> { Set(findings.map(\.line)) }

  /// One line: the lint's finding (or "not flagged"), then the live verdict
  /// for this form: confirmed, contradicted, or not yet run.
  public func status(in state: AppState) -> String {
    let lint = findings.first.map { "lint: \($0.title)" } ?? "lint: not flagged"
    return lint + " — " + verdict(in: state)
  }

  /// Whether the live run agrees with the lint (`nil`: not run yet, or still checking).
  public func isConfirmed(in state: AppState) -> Bool? {
    guard !isBlindSpot, let leaked = leaked(in: state) else { return nil }
    return leaked == !findings.isEmpty
  }

  private func leaked(in state: AppState) -> Bool? {
    guard state.lastRun == OpenScenario(id: scenarioID, mode: mode), state.openScenario == nil,
      state.report.pendingExpectations == 0
    else { return nil }
    return !state.report.leaks.isEmpty
  }

  private func verdict(in state: AppState) -> String {
    if state.openScenario?.id == scenarioID { return "close it to check" }
    guard let leaked = leaked(in: state) else {
      let ran = state.lastRun == OpenScenario(id: scenarioID, mode: mode)
      return ran ? "checking…" : "open and close it to check"
    }
    if isBlindSpot, !leaked { return "no leak to confirm: the log shows what goes wrong" }
    let temporary = leaked && state.report.openLeaks.isEmpty ? " (temporary)" : ""
    switch (findings.isEmpty, leaked) {
    case (false, true): return "confirmed: leaked" + temporary
    case (false, false): return "not confirmed: clean"
    case (true, false): return "confirmed: clean"
    case (true, true): return "but it leaked" + temporary
    }
  }
}
