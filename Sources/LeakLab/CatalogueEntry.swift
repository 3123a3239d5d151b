import Scenarios

/// One row of the catalogue list: what the app shows about a scenario, and its mode.
///
/// A plain value copied from a ``Scenarios/Scenario`` (which holds closures and
/// so is not `Equatable`), so that ``AppState`` stays a comparable value.
///
/// ```swift
/// let entry = CatalogueEntry(scenario, mode: .strong)
/// entry.codeLines  // the lines of the strong form
/// ```
public struct CatalogueEntry: Equatable, Sendable, Identifiable {
  /// The scenario's stable identifier: `closure-capture`.
  public var id: String
  /// The title shown in the list.
  public var title: String
  /// The pattern in one line.
  public var pattern: String
  /// The actions on the scenario's screen, in button order (keys 1–9).
  public var actions: [ScenarioAction]
  /// Why the leaky form leaks.
  public var whyItLeaks: String
  /// The fix, in one line.
  public var fix: String
  /// The code shown, both forms.
  public var code: CodeExcerpt
  /// The action whose tap runs the marked line (from zero); `nil`: opening runs it.
  public var markedLineAction: Int?
  /// What goes wrong in the leaky form that no leak detector reports, if that is the lesson.
  public var detectorBlindSpot: String?
  /// What differs in a real app (a global root the scenario injects).
  public var inARealApp: String?
  /// The form the next open runs: strong (leaky) or weak (fixed).
  public var mode: ScenarioMode

  /// Copies what the app shows about `scenario`.
  public init(_ scenario: Scenario, mode: ScenarioMode = .strong) {
    id = scenario.id
    title = scenario.title
    pattern = scenario.pattern
    actions = scenario.actions
    whyItLeaks = scenario.whyItLeaks
    fix = scenario.fix
    code = scenario.code
    markedLineAction = scenario.markedLineAction
    detectorBlindSpot = scenario.detectorBlindSpot
    inARealApp = scenario.inARealApp
    self.mode = mode
  }

  /// The code lines of the current ``mode``.
  public var codeLines: [CodeExcerpt.Line] { code.lines(for: mode) }
}
