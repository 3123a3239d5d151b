import Scenarios
import TextGrid

/// What the user did (or, for the last few cases, what happened): the input of ``AppReducer``.
///
/// Actions are named after the user's intent, not after their effect: the
/// reducer decides what `closeKeyPressed` means with an alert on screen.
///
/// ```swift
/// model.send(.moveDownPressed)
/// model.send(.captureToggled)
/// model.send(.openKeyPressed)
/// ```
public enum AppAction: Equatable, Sendable {
  /// ↑ or `k`: the previous scenario (in the explain view, the previous leak).
  case moveUpPressed
  /// ↓ or `j`: the next scenario (in the explain view, the next leak).
  case moveDownPressed
  /// Enter: open the selected scenario.
  case openKeyPressed
  /// Esc, ← or Backspace: close the alert, modal or screen on top (or the help or explain view).
  case closeKeyPressed
  /// `w`: switch the selected scenario between strong and weak.
  case captureToggled
  /// A number key 1–9 (Space is 1): tap the alert's action with that number
  /// if an alert is shown, else the scenario's action.
  case actionKeyPressed(Int)
  /// `o`: cycle the overlay between always, only with issues and hidden.
  case overlayKeyPressed
  /// `?`: show or hide the help overlay.
  case helpKeyPressed
  /// `e`: show or hide the full retain paths of the leaked instances.
  case explainKeyPressed
  /// `q` or Ctrl-C: quit.
  case quitKeyPressed
  /// Tab: the focus moves to the next pane (in the explain view: the next leak).
  case focusNextPressed
  /// Shift-Tab: the focus moves to the previous pane (in the explain view: the previous leak).
  case focusPreviousPressed
  /// PgUp/PgDn, Home/End, `g`/`G`, ←→ `h` `l`: scroll the focused pane (or the explain view).
  case scrollKeyPressed(ScrollStep)
  /// `/`: start typing a filter for the catalogue.
  case filterKeyPressed
  /// A key typed while the filter is being edited: text, Backspace, Enter (keep) or Esc (clear).
  case filterTyped(Key)
  /// `y`: copy the selected leak's retain path to the clipboard (OSC 52).
  case copyKeyPressed
  /// `r`: write the current run's report (label, leaks, retain paths, log) as JSON.
  case reportKeyPressed
  /// A click selects (a scenario, a leak) and focuses the pane under it; the wheel scrolls it.
  case mouseUsed(MouseEvent)
  /// `t`: show the guided tour from its start, or hide it.
  case tourKeyPressed
  /// `s`: show or hide the strong and weak forms side by side.
  case comparisonKeyPressed
  /// `d`: show retain paths' steps through untyped memory, or fold them.
  case detailsKeyPressed

  // MARK: Keys of `leaklab watch` (``KeyMap/watch``)

  /// `m`: set the mark: changes are counted from the census on screen.
  case markKeyPressed
  /// `s`: sort the types by bytes, by count, by change since the mark.
  case sortKeyPressed
  /// `p`: pause or resume the snapshots.
  case pauseKeyPressed
  /// `i`: the next refresh period.
  case periodKeyPressed

  // MARK: Not keys: used by step scripts and by the model itself

  /// Select the scenario with this identifier (ignored while a scenario is open).
  case scenarioSelected(id: String)
  /// Set the selected scenario's mode (ignored while a scenario is open).
  case modeSet(ScenarioMode)
  /// Time passed or the detector changed: the state is refreshed from the world.
  case tick
  /// The open scenario's screen left the navigation stack (sent by the model after going back).
  case scenarioClosed
  /// The terminal has a new size (sent by the model when a frame of another size is drawn).
  case terminalResized(Size)
  /// The report was written to `path`, or could not be (`error`).
  case reportWritten(path: String, error: String?)

  /// Whether the action comes from a key (and so clears a notice and closes the help overlay).
  public var isKeyPress: Bool {
    switch self {
    case .scenarioSelected, .modeSet, .tick, .scenarioClosed, .terminalResized, .reportWritten: false
    default: true
    }
  }
}
