import LeakDetector
import Scenarios

/// The app's logic as a pure function: an action changes the state and may ask for effects.
///
/// ```swift
/// var state = AppState(catalogue: entries)
/// let effects = AppReducer.reduce(&state, .openKeyPressed)
/// // effects == [.open(id: "closure-capture", mode: .strong)]
/// ```
///
/// Rules worth knowing:
/// - While a scenario is open, the selection and the modes are fixed: ↑/↓,
///   Enter and `w` only leave a notice ("Esc closes … first"). So the code pane
///   always shows the form that runs.
/// - With the help overlay shown, a key other than `?`, Esc or `q` only closes it.
/// - In the explain view, ↑/↓ pick the leak, PgUp/PgDn scroll it; Esc or `e`
///   close it; other keys (but `q`, `?` and `o`) only close it.
public enum AppReducer {
  /// Applies `action` to `state`; returns the effects to perform, in order.
  public static func reduce(_ state: inout AppState, _ action: AppAction) -> [AppEffect] {
    if action.isKeyPress { state.notice = nil }
    if state.isHelpVisible, action.isKeyPress {
      switch action {
      case .quitKeyPressed: state.isQuitRequested = true
      default: state.isHelpVisible = false
      }
      return []
    }
    if state.explainedLeakIndex != nil, let effects = reduceInExplainView(&state, action) {
      return effects
    }
    switch action {
    case .moveUpPressed:
      moveSelection(&state, by: -1)
    case .moveDownPressed:
      moveSelection(&state, by: 1)
    case .openKeyPressed:
      return open(&state)
    case .closeKeyPressed:
      if state.openScenario != nil { return [.goBack] }
    case .captureToggled:
      setMode(&state, state.selectedEntry?.mode.toggled)
    case .actionKeyPressed(let number):
      return tap(&state, number: number)
    case .overlayKeyPressed:
      state.overlayMode = state.overlayMode.next
      state.notice = "Overlay: \(state.overlayMode.title)"
    case .helpKeyPressed:
      state.isHelpVisible = true
    case .explainKeyPressed:
      state.explainedLeakIndex = state.report.leaks.firstIndex(where: \.isOpen) ?? 0
      state.explainScroll = 0
    case .pageUpPressed, .pageDownPressed:
      break
    case .quitKeyPressed:
      state.isQuitRequested = true
    case .scenarioSelected(let id):
      if state.openScenario == nil, let index = state.catalogue.firstIndex(where: { $0.id == id }) {
        state.selectedIndex = index
      }
    case .modeSet(let mode):
      setMode(&state, mode)
    case .tick:
      break
    case .scenarioClosed:
      if let open = state.openScenario, let entry = state.openEntry {
        state.log(.closed, "\(entry.title) (\(open.mode.rawValue))")
      }
      state.openScenario = nil
    }
    return []
  }

  // MARK: Steps

  private static func reduceInExplainView(_ state: inout AppState, _ action: AppAction) -> [AppEffect]? {
    let count = state.report.leaks.count
    switch action {
    case .moveUpPressed:
      state.explainedLeakIndex = max(0, (state.explainedLeakIndex ?? 0) - 1)
      state.explainScroll = 0
    case .moveDownPressed:
      state.explainedLeakIndex = max(0, min(count - 1, (state.explainedLeakIndex ?? 0) + 1))
      state.explainScroll = 0
    case .pageUpPressed, .pageDownPressed:
      let page = max(1, ExplainView.visibleRows(in: state.screenSize) - 1)
      let scroll = state.explainScroll + (action == .pageDownPressed ? page : -page)
      state.explainScroll = max(0, min(ExplainView.maxScroll(state), scroll))
    case .closeKeyPressed, .explainKeyPressed:
      state.explainedLeakIndex = nil
    case .quitKeyPressed, .helpKeyPressed, .overlayKeyPressed:
      return nil
    default:
      guard action.isKeyPress else {
        state.explainedLeakIndex = max(0, min(count - 1, state.explainedLeakIndex ?? 0))
        return nil
      }
      state.explainedLeakIndex = nil
    }
    return []
  }

  private static func moveSelection(_ state: inout AppState, by offset: Int) {
    guard state.openScenario == nil else {
      state.notice = "Esc closes the open scenario first"
      return
    }
    guard !state.catalogue.isEmpty else { return }
    state.selectedIndex = max(0, min(state.catalogue.count - 1, state.selectedIndex + offset))
  }

  private static func open(_ state: inout AppState) -> [AppEffect] {
    guard state.openScenario == nil else {
      state.notice = "A scenario is open: Esc closes it"
      return []
    }
    guard let entry = state.selectedEntry else { return [] }
    state.openScenario = OpenScenario(id: entry.id, mode: entry.mode)
    state.runScenarioID = entry.id
    state.log(.opened, "\(entry.title) (\(entry.mode.rawValue))")
    return [.open(id: entry.id, mode: entry.mode)]
  }

  private static func setMode(_ state: inout AppState, _ mode: ScenarioMode?) {
    guard state.openScenario == nil else {
      state.notice = "Esc closes the scenario first; the new form applies when it opens again"
      return
    }
    guard let mode, state.catalogue.indices.contains(state.selectedIndex) else { return }
    state.catalogue[state.selectedIndex].mode = mode
    state.notice = "\(state.catalogue[state.selectedIndex].title): \(mode.rawValue) (\(mode.prose))"
  }

  private static func tap(_ state: inout AppState, number: Int) -> [AppEffect] {
    let index = number - 1
    if let alert = state.phone?.alert {
      guard alert.actions.indices.contains(index) else { return [] }
      state.log(.action, "alert: \(alert.actions[index].title)")
      return [.tapAlertAction(index: index)]
    }
    guard let entry = state.openEntry else {
      state.notice = "Enter opens the selected scenario first"
      return []
    }
    guard entry.actions.indices.contains(index) else { return [] }
    state.log(.action, entry.actions[index].title)
    return [.runAction(index: index)]
  }
}

extension AppState {
  /// Appends a log line at the state's current time.
  mutating func log(_ kind: LogEntry.Kind, _ text: String) {
    appendToLog([LogEntry(time: now, kind: kind, text: text)])
  }

  /// Appends entries to the log, keeping the newest ``logLimit``.
  mutating func appendToLog(_ entries: [LogEntry]) {
    log.append(contentsOf: entries)
    if log.count > Self.logLimit { log.removeFirst(log.count - Self.logLimit) }
  }
}
