/// The guided first run: seven steps a newcomer does once (open, tap, close,
/// watch the label, explain, switch to the fixed form, run it again), each
/// shown as one line above the status bar until it is done.
///
/// It starts by itself until it has been finished or hidden once (`t`); the
/// app remembers that in a file (``AppModel``'s `tourMemory`), and `t` shows
/// it again from the start.
///
/// ```swift
/// var state = AppState(catalogue: entries)
/// state.tour = .open
/// state.tour?.text(in: state)  // "Tour 1/7 · Enter opens the selected scenario, leaky (strong)."
/// ```
public enum TourStep: Int, CaseIterable, Equatable, Sendable {
  case open, tap, close, watch, explain, switchForm, again

  /// What to do now, in one sentence, with the step's number.
  public func text(in state: AppState) -> String {
    let entry = state.openEntry ?? state.selectedEntry
    let number = "Tour \(rawValue + 1)/\(Self.allCases.count) · "
    switch self {
    case .open:
      if let hint = state.markedLineHint {
        return number + "Clean: the leaky line never ran. Enter, then \(hint)."
      }
      return number + "Enter opens the selected scenario, leaky (strong)."
    case .tap:
      let action = entry.flatMap { entry in entry.markedLineAction.map { (index: $0, entry: entry) } }
      guard let action, action.entry.actions.indices.contains(action.index) else {
        return number + "Tap its buttons with the number keys."
      }
      return number
        + "Tap \(action.index + 1) (\(action.entry.actions[action.index].title)): it runs the marked, leaky line."
    case .close:
      return number + "Esc closes it: 1 s later the detector checks what is left."
    case .watch:
      return number + "Watch the Detector: its label names what outlived the screen."
    case .explain:
      return number + "e: why is it alive? The heavy red arrow is the one to break."
    case .switchForm:
      return number + "Esc, then w switches it to the fixed form (weak)."
    case .again:
      return number + "Open, tap, close the fixed form: the label stays clean."
    }
  }

  /// The step `state` has reached from this one: the same while it is not
  /// done, `nil` once the tour is over.
  func advanced(in state: AppState) -> TourStep? {
    switch self {
    case .open:
      guard let open = state.openScenario else { return self }
      if open.mode == .weak { return .again }
      let needsTap = state.openEntry?.markedLineAction != nil
      return needsTap ? .tap : .close
    case .tap:
      guard state.openScenario != nil else { return .open }
      guard let action = state.openEntry?.markedLineAction else { return .close }
      return state.tappedActions.contains(action) ? .close : self
    case .close:
      return state.openScenario == nil ? .watch : self
    case .watch:
      if !state.report.leaks.isEmpty { return .explain }
      return state.lastCheck != nil ? .open : self
    case .explain:
      return state.explainedLeakIndex != nil ? .switchForm : self
    case .switchForm:
      return state.explainedLeakIndex == nil && state.selectedEntry?.mode == .weak ? .again : self
    case .again:
      guard let run = state.lastRun, run.mode == .weak, state.openScenario == nil,
        state.lastCheck?.allDeallocated == true, state.report.leaks.isEmpty
      else { return self }
      return nil
    }
  }
}
