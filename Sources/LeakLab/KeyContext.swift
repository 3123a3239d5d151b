/// What is on screen, as far as keys are concerned: picks which bindings the
/// status bar shows.
public enum KeyContext: String, CaseIterable, Hashable, Sendable {
  /// The catalogue list, no scenario open.
  case browsing
  /// A scenario's screen is on the phone.
  case scenario
  /// An alert is shown on the phone.
  case alert
  /// The `?` help overlay is shown.
  case help
  /// The explain view (full retain paths) is shown.
  case explain
  /// A pane other than the catalogue has the focus: keys scroll it.
  case pane
  /// Keys are typing the catalogue filter (`/`).
  case filtering
  /// The side-by-side view of the strong and weak forms is shown (`s`).
  case comparison
}
