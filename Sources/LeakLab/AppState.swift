import GraphLayout
import LeakDetector
import Scenarios
import ScreenKit
import TextGrid

/// Everything the app shows, as a value: ``render(_:size:)`` draws it and
/// nothing else.
///
/// ``AppModel`` owns the only instance. Key presses become ``AppAction``s,
/// ``AppReducer`` changes the state, and after every action or clock tick the
/// model copies what the simulated world shows into it (the phone screen, the
/// detector's report, the event log).
///
/// ```swift
/// let model = AppModel(catalogue: scenarios, scheduler: ManualScheduler())
/// model.send(.openKeyPressed)
/// model.state.openScenario?.mode  // .strong
/// model.state.report.summaryLabel  // "No issues detected"
/// ```
public struct AppState: Equatable, Sendable {
  /// The catalogue, in order, each with its current mode.
  public var catalogue: [CatalogueEntry]
  /// The index of the selected row in ``catalogue``.
  public var selectedIndex: Int
  /// The scenario whose screen is on the phone, if any.
  public var openScenario: OpenScenario?
  /// What the simulated phone shows: the window's snapshot.
  public var phone: ScreenSnapshot?
  /// The event log, oldest first, at most ``logLimit`` entries.
  public var log: [LogEntry]
  /// The detector's report for the current run.
  public var report: LeakReport
  /// When the overlay panel is drawn.
  public var overlayMode: OverlayMode
  /// Whether the `?` help overlay is shown.
  public var isHelpVisible: Bool
  /// The leak whose full retain path the explain view shows; `nil` when the view is closed.
  public var explainedLeakIndex: Int?
  /// How many rows the explain view is scrolled down.
  public var explainScroll: Int
  /// Each leaked instance's retain graph (its cycle or root path), by name (`AlertController#1`).
  public var retainGraphs: [String: ReferenceGraph]
  /// The scenario of the current run: the one opened last (its fix is shown beside the graphs).
  public var runScenarioID: String?
  /// The size of the terminal the last frame was drawn for: how far the explain view scrolls.
  public var screenSize: Size
  /// A one-line message for the status bar (why a key did nothing); cleared by the next key.
  public var notice: String?
  /// The time on the app's clock when the state was last refreshed.
  public var now: Duration
  /// Whether the user asked to quit.
  public var isQuitRequested: Bool
  /// The key bindings: the status bar and the help overlay are drawn from them.
  public var keyMap: KeyMap

  /// How many log entries are kept.
  public static let logLimit = 200

  /// The start state: the first scenario selected, every scenario strong,
  /// the overlay always shown, nothing open.
  public init(catalogue: [CatalogueEntry], keyMap: KeyMap = .standard) {
    self.catalogue = catalogue
    selectedIndex = 0
    openScenario = nil
    phone = nil
    log = []
    report = .empty
    overlayMode = .always
    isHelpVisible = false
    explainedLeakIndex = nil
    explainScroll = 0
    retainGraphs = [:]
    runScenarioID = nil
    screenSize = Size(width: 80, height: 24)
    notice = nil
    now = .zero
    isQuitRequested = false
    self.keyMap = keyMap
  }

  /// The selected catalogue row, if the catalogue is not empty.
  public var selectedEntry: CatalogueEntry? {
    catalogue.indices.contains(selectedIndex) ? catalogue[selectedIndex] : nil
  }

  /// The catalogue row of the open scenario, if one is open.
  public var openEntry: CatalogueEntry? {
    openScenario.flatMap { open in catalogue.first { $0.id == open.id } }
  }

  /// Which keys mean something now: picks the status bar's hints.
  public var keyContext: KeyContext {
    if isHelpVisible { return .help }
    if explainedLeakIndex != nil { return .explain }
    if phone?.alert != nil { return .alert }
    return openScenario == nil ? .browsing : .scenario
  }

  /// Whether the overlay panel is drawn, given ``overlayMode`` and the report.
  public var isOverlayVisible: Bool {
    switch overlayMode {
    case .always: true
    case .onlyWithIssues: !report.isClean
    case .hidden: false
    }
  }
}

/// The scenario on the phone and the form it runs in.
public struct OpenScenario: Equatable, Sendable {
  /// The scenario's identifier.
  public var id: String
  /// The form it was opened in; switching modes applies to the next open.
  public var mode: ScenarioMode
}

/// When the detector overlay is drawn, like LifetimeTracker's dashboard.
public enum OverlayMode: String, CaseIterable, Equatable, Sendable {
  /// Always: `No issues detected` is on screen from the first frame.
  case always
  /// Only while there is an open leak or an exceeded budget.
  case onlyWithIssues
  /// Never.
  case hidden

  /// The next mode for the `o` key: always → only with issues → hidden → always.
  public var next: OverlayMode {
    switch self {
    case .always: .onlyWithIssues
    case .onlyWithIssues: .hidden
    case .hidden: .always
    }
  }

  /// How the status bar and help name the mode.
  public var title: String {
    switch self {
    case .always: "always"
    case .onlyWithIssues: "only with issues"
    case .hidden: "hidden"
    }
  }
}
