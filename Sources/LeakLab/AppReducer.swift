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
/// - While a scenario is open, the selection and the modes are fixed: Enter,
///   `w` and moving in the catalogue only leave a notice ("Esc closes … first").
///   So the code pane always shows the form that runs.
/// - ↑↓ act on the focused pane (Tab moves the focus): the catalogue's
///   selection, the detector's leak cursor, or a scroll of the code or the log.
/// - With the help overlay shown, a key other than `?`, Esc or `q` only closes it.
/// - While the filter is typed (`/`), keys are text; Enter keeps it, Esc clears it.
/// - In the explain view, ↑↓ and the page keys scroll, Tab picks the leak, `y`
///   copies, `d` shows or folds untyped memory; Esc or `e` close it; other
///   keys (but `q`, `?`, `o` and `r`) only close it.
public enum AppReducer {
  /// Applies `action` to `state`; returns the effects to perform, in order.
  public static func reduce(_ state: inout AppState, _ action: AppAction) -> [AppEffect] {
    if action.isKeyPress { state.notice = nil }
    if state.isHelpVisible, action.isKeyPress {
      reduceInHelp(&state, action)
      return []
    }
    if case .filterTyped(let key) = action {
      editFilter(&state, key)
      return []
    }
    if state.isComparisonVisible, let effects = reduceInComparison(&state, action) {
      return effects
    }
    if state.explainedLeakIndex != nil, let effects = reduceInExplainView(&state, action) {
      return effects
    }
    switch action {
    case .moveUpPressed:
      move(&state, by: -1)
    case .moveDownPressed:
      move(&state, by: 1)
    case .openKeyPressed:
      return open(&state)
    case .closeKeyPressed:
      if state.openScenario != nil { return [.goBack] }
      if !state.filter.isEmpty {
        state.filter = ""
        state.notice = "Filter cleared"
      }
    case .captureToggled:
      setMode(&state, state.selectedEntry?.mode.toggled)
    case .actionKeyPressed(let number):
      return tap(&state, number: number)
    case .overlayKeyPressed:
      state.overlayMode = state.overlayMode.next
      state.notice = "Overlay: \(state.overlayMode.title)"
      if !state.isOverlayVisible, state.focus == .detector { state.focus = .catalogue }
    case .helpKeyPressed:
      state.isHelpVisible = true
      state.helpScroll = .top
    case .explainKeyPressed:
      openExplainView(&state)
    case .quitKeyPressed:
      state.isQuitRequested = true
    case .focusNextPressed:
      moveFocus(&state, forward: true)
    case .focusPreviousPressed:
      moveFocus(&state, forward: false)
    case .scrollKeyPressed(let step):
      scroll(&state, step)
    case .filterKeyPressed:
      startFilter(&state)
    case .copyKeyPressed:
      return copyRetainPath(&state, leakIndex: state.leakForKeys)
    case .reportKeyPressed:
      return [.writeReport]
    case .mouseUsed(let event):
      return useMouse(&state, event)
    case .tourKeyPressed:
      guard state.tour == nil else {
        state.tour = nil
        state.notice = "Tour hidden: t shows it again"
        return [.rememberTourDone]
      }
      state.tour = .open
      state.tour = TourStep.open.advanced(in: state)
    case .comparisonKeyPressed:
      guard state.shownEntry != nil else { return [] }
      state.isComparisonVisible = true
      state.comparisonScroll = .top
    case .detailsKeyPressed:
      state.showsMemoryDetails.toggle()
      state.notice =
        state.showsMemoryDetails
        ? "Retain paths show every step through untyped memory (d folds them)"
        : "Steps through untyped memory are folded (d shows them)"
    case .scenarioSelected(let id):
      if state.openScenario == nil, let index = state.catalogue.firstIndex(where: { $0.id == id }) {
        select(&state, index)
      }
    case .modeSet(let mode):
      setMode(&state, mode)
    case .tick, .filterTyped, .markKeyPressed, .sortKeyPressed, .pauseKeyPressed, .periodKeyPressed:
      break
    case .scenarioClosed:
      if let open = state.openScenario, let entry = state.openEntry {
        state.log(.closed, "\(entry.title) (\(open.mode.rawValue))")
      }
      state.openScenario = nil
    case .terminalResized(let size):
      state.screenSize = size
    case .reportWritten(let path, let error):
      state.notice = error.map { "Could not write the report to \(path): \($0)" } ?? "Report: \(path)"
    }
    return []
  }

  // MARK: Steps

  private static func reduceInExplainView(_ state: inout AppState, _ action: AppAction) -> [AppEffect]? {
    let count = state.report.leaks.count
    switch action {
    case .moveUpPressed:
      state.explainScroll = PaneMetrics.explain(in: state).moved(by: .lineUp)
    case .moveDownPressed:
      state.explainScroll = PaneMetrics.explain(in: state).moved(by: .lineDown)
    case .scrollKeyPressed(let step):
      state.explainScroll = PaneMetrics.explain(in: state).moved(by: step)
    case .focusNextPressed, .focusPreviousPressed:
      guard count > 0 else { return [] }
      let step = action == .focusNextPressed ? 1 : count - 1
      let index = ((state.explainedLeakIndex ?? 0) + step) % count
      state.explainedLeakIndex = index
      state.selectedLeakIndex = index
      state.explainScroll = .top
    case .copyKeyPressed:
      return copyRetainPath(&state, leakIndex: state.explainedLeakIndex)
    case .mouseUsed(let event):
      switch event.kind {
      case .wheelUp: state.explainScroll = PaneMetrics.explain(in: state).moved(by: .wheelUp)
      case .wheelDown: state.explainScroll = PaneMetrics.explain(in: state).moved(by: .wheelDown)
      case .press, .release: break
      }
    case .closeKeyPressed, .explainKeyPressed:
      state.explainedLeakIndex = nil
    case .quitKeyPressed, .helpKeyPressed, .overlayKeyPressed, .reportKeyPressed, .detailsKeyPressed:
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

  /// In the side-by-side view the scroll keys scroll it, `w` switches the
  /// selected form, Esc or `s` close it; `q`, `?` pass; other keys close it.
  private static func reduceInComparison(_ state: inout AppState, _ action: AppAction) -> [AppEffect]? {
    let metrics = PaneMetrics.comparison(in: state)
    switch action {
    case .moveUpPressed: state.comparisonScroll = metrics.moved(by: .lineUp)
    case .moveDownPressed: state.comparisonScroll = metrics.moved(by: .lineDown)
    case .scrollKeyPressed(let step): state.comparisonScroll = metrics.moved(by: step)
    case .mouseUsed(let event) where event.kind == .wheelUp:
      state.comparisonScroll = metrics.moved(by: .wheelUp)
    case .mouseUsed(let event) where event.kind == .wheelDown:
      state.comparisonScroll = metrics.moved(by: .wheelDown)
    case .captureToggled: return nil
    case .closeKeyPressed, .comparisonKeyPressed: state.isComparisonVisible = false
    case .quitKeyPressed, .helpKeyPressed: return nil
    default:
      guard action.isKeyPress else { return nil }
      state.isComparisonVisible = false
    }
    return []
  }

  /// In the help overlay the scroll keys scroll, `q` quits, any other key closes it.
  private static func reduceInHelp(_ state: inout AppState, _ action: AppAction) {
    let layout = AppLayout(size: state.screenSize, state: state)
    let frame = HelpOverlayView.frame(state, in: layout.body)
    let content = HelpOverlayView.content(state, width: frame.viewport.width).size
    let position = state.helpScroll.clamped(content: content, viewport: frame.viewport.size)
    let step: ScrollStep? =
      switch action {
      case .moveUpPressed: .lineUp
      case .moveDownPressed: .lineDown
      case .scrollKeyPressed(let step): step
      case .mouseUsed(let event) where event.kind == .wheelUp: .wheelUp
      case .mouseUsed(let event) where event.kind == .wheelDown: .wheelDown
      default: nil
      }
    if let step {
      state.helpScroll = position.moved(by: step, content: content, viewport: frame.viewport.size)
    } else if action == .quitKeyPressed {
      state.isQuitRequested = true
    } else {
      state.isHelpVisible = false
    }
  }

  private static func openExplainView(_ state: inout AppState) {
    state.explainedLeakIndex = state.leakForKeys ?? 0
    state.explainScroll = .top
  }

  private static func open(_ state: inout AppState) -> [AppEffect] {
    guard state.openScenario == nil else {
      state.notice = "A scenario is open: Esc closes it"
      return []
    }
    guard let entry = state.selectedEntry, state.visibleCatalogueIndices.contains(state.selectedIndex) else {
      return []
    }
    state.openScenario = OpenScenario(id: entry.id, mode: entry.mode)
    state.lastRun = state.openScenario
    state.lastCheck = nil
    state.tappedActions = []
    state.selectedLeakIndex = 0
    state.scroll[.detector] = nil
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
    state.scroll[.code] = nil
    state.notice = "\(state.catalogue[state.selectedIndex].title): \(mode.rawValue) (\(mode.prose))"
  }

  private static func tap(_ state: inout AppState, number: Int) -> [AppEffect] {
    let index = number - 1
    if let alert = state.phone?.alert {
      guard alert.actions.indices.contains(index) else {
        state.notice = "\(number) does nothing here: the alert's actions are 1–\(alert.actions.count)"
        return []
      }
      state.log(.action, "alert: \(alert.actions[index].title)")
      return [.tapAlertAction(index: index)]
    }
    guard let entry = state.openEntry else {
      state.notice = "Enter opens the selected scenario first"
      return []
    }
    guard entry.actions.indices.contains(index) else {
      let count = entry.actions.count
      state.notice =
        count == 1
        ? "\(number) does nothing here: this screen has one action (1)"
        : "\(number) does nothing here: this screen's actions are 1–\(count)"
      return []
    }
    state.log(.action, entry.actions[index].title)
    state.tappedActions.insert(index)
    return [.runAction(index: index)]
  }

  private static func copyRetainPath(_ state: inout AppState, leakIndex: Int?) -> [AppEffect] {
    guard let index = leakIndex, state.report.leaks.indices.contains(index) else {
      state.notice = "Nothing to copy: no leak in this run"
      return []
    }
    let leak = state.report.leaks[index]
    guard let path = leak.retainPath else {
      state.notice = "\(leak.name) has no retain path to copy"
      return []
    }
    state.notice = "Copied the retain path of \(leak.name) to the clipboard (OSC 52)"
    return [.copyToClipboard(path)]
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

  /// The leak `e` explains and `y` copies: the detector cursor's when the
  /// detector has the focus, else the first open one (else the first).
  var leakForKeys: Int? {
    let leaks = report.leaks
    guard !leaks.isEmpty else { return nil }
    if focus == .detector, leaks.indices.contains(selectedLeakIndex) { return selectedLeakIndex }
    return leaks.firstIndex(where: \.isOpen) ?? 0
  }
}
