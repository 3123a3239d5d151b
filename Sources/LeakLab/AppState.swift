import Foundation
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
  /// The scenario and form of the current run (the last open): what the
  /// overlay, the log's latest lines and the explain view are about.
  public var lastRun: OpenScenario?
  /// What the simulated phone shows: the window's snapshot.
  public var phone: ScreenSnapshot?
  /// The event log, oldest first, at most ``logLimit`` entries.
  public var log: [LogEntry]
  /// The detector's report for the current run.
  public var report: LeakReport
  /// The current run's latest check: what the detector checked once the
  /// grace delay after the close had passed (`nil` before that).
  public var lastCheck: RunCheck?
  /// When the overlay panel is drawn.
  public var overlayMode: OverlayMode
  /// Whether the `?` help overlay is shown.
  public var isHelpVisible: Bool
  /// The leak whose full retain path the explain view shows; `nil` when the view is closed.
  public var explainedLeakIndex: Int?
  /// The leak the detector pane's cursor is on (when it has the focus): what
  /// `e` explains and `y` copies.
  public var selectedLeakIndex: Int
  /// The pane with the keyboard focus (Tab moves it).
  public var focus: FocusPane
  /// Where the user scrolled each pane to; a pane without an entry scrolls by
  /// itself (the code pane to its marked line, the log to its newest line).
  public var scroll: [FocusPane: ScrollPosition]
  /// Where the explain view's content is scrolled to.
  public var explainScroll: ScrollPosition
  /// Where the help overlay is scrolled to.
  public var helpScroll: ScrollPosition
  /// The catalogue filter (`/`): only scenarios whose title, id or pattern
  /// contain it (ignoring case) are listed.
  public var filter: String
  /// Whether keys are typing the filter (between `/` and Enter or Esc).
  public var isEditingFilter: Bool
  /// Each leaked instance's retain graph (its cycle or root path), by name (`AlertController#1`).
  public var retainGraphs: [String: ReferenceGraph]
  /// The terminal's size, for scrolling by pages and for mouse clicks.
  public var screenSize: Size
  /// A one-line message for the status bar (why a key did nothing); cleared by the next key.
  public var notice: String?
  /// The time on the app's clock when the state was last refreshed.
  public var now: Duration
  /// Whether the user asked to quit.
  public var isQuitRequested: Bool
  /// The key bindings: the status bar and the help overlay are drawn from them.
  public var keyMap: KeyMap
  /// The current run's actions tapped so far (from zero): whether the marked line ran.
  public var tappedActions: Set<Int>
  /// How many objects of each type closed screens handed to the detector, in
  /// any run, are still alive (leaks piling up across runs).
  public var liveCounts: [String: Int]
  /// Whether retain paths show every step through memory without type
  /// information (`malloc block`, `word 5`), or fold them (`d` toggles).
  public var showsMemoryDetails: Bool
  /// Whether the side-by-side view of the strong and weak forms is shown (`s`).
  public var isComparisonVisible: Bool
  /// Where the side-by-side view is scrolled to.
  public var comparisonScroll: ScrollPosition
  /// The guided tour's step, when it is shown.
  public var tour: TourStep?

  /// How many log entries are kept.
  public static let logLimit = 200

  /// The start state: the first scenario selected, every scenario strong,
  /// the overlay always shown, nothing open.
  public init(catalogue: [CatalogueEntry], keyMap: KeyMap = .standard) {
    self.catalogue = catalogue
    selectedIndex = 0
    openScenario = nil
    lastRun = nil
    phone = nil
    log = []
    report = .empty
    lastCheck = nil
    overlayMode = .always
    isHelpVisible = false
    explainedLeakIndex = nil
    selectedLeakIndex = 0
    focus = .catalogue
    scroll = [:]
    explainScroll = .top
    helpScroll = .top
    filter = ""
    isEditingFilter = false
    screenSize = AppLayout.minimumSize
    retainGraphs = [:]
    notice = nil
    now = .zero
    isQuitRequested = false
    self.keyMap = keyMap
    tappedActions = []
    liveCounts = [:]
    showsMemoryDetails = false
    isComparisonVisible = false
    comparisonScroll = .top
    tour = nil
  }

  /// The selected catalogue row, if the catalogue is not empty.
  public var selectedEntry: CatalogueEntry? {
    catalogue.indices.contains(selectedIndex) ? catalogue[selectedIndex] : nil
  }

  /// The catalogue row of the open scenario, if one is open.
  public var openEntry: CatalogueEntry? {
    openScenario.flatMap { open in catalogue.first { $0.id == open.id } }
  }

  /// The catalogue row of the current run's scenario, if there has been a run.
  public var lastRunEntry: CatalogueEntry? {
    lastRun.flatMap { run in catalogue.first { $0.id == run.id } }
  }

  /// Whether the selection is not the current run's scenario: the overlay
  /// and the explain view then describe a run of another scenario.
  public var isSelectionAnotherScenario: Bool {
    openScenario == nil && lastRun != nil && lastRun?.id != selectedEntry?.id
  }

  /// Whether the explain view speaks of the selection, which has not run,
  /// instead of the last run's leaks: `e` outside the detector with another
  /// scenario selected. From the detector, `e` explains the leak under its cursor.
  public var explainsUnrunSelection: Bool {
    isSelectionAnotherScenario && focus != .detector
  }

  /// Why a leaky run came back clean when its marked line never ran: `tap 1
  /// Load feed before closing to run the leaky line`; `nil` otherwise.
  public var markedLineHint: String? {
    guard openScenario == nil, let run = lastRun, run.mode == .strong, let entry = lastRunEntry,
      entry.detectorBlindSpot == nil, let action = entry.markedLineAction,
      entry.actions.indices.contains(action), !tappedActions.contains(action), report.leaks.isEmpty,
      lastCheck != nil
    else { return nil }
    return "tap \(action + 1) \(entry.actions[action].title) before closing to run the leaky line"
  }

  /// The catalogue rows the filter lets through, in order.
  public var visibleCatalogueIndices: [Int] {
    guard !filter.isEmpty else { return Array(catalogue.indices) }
    return catalogue.indices.filter { index in
      let entry = catalogue[index]
      return [entry.title, entry.id, entry.pattern].contains { $0.localizedStandardContains(filter) }
    }
  }

  /// Which keys mean something now: picks the status bar's hints.
  public var keyContext: KeyContext {
    if isHelpVisible { return .help }
    if isComparisonVisible { return .comparison }
    if isEditingFilter { return .filtering }
    if explainedLeakIndex != nil { return .explain }
    if phone?.alert != nil { return .alert }
    if focus != .catalogue { return .pane }
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
