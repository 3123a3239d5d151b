/// The panes that take the keyboard focus, in Tab order.
///
/// The focused pane gets ↑↓, PgUp/PgDn, Home/End and g/G (and ←→ h l where
/// its content is wider than the pane); the status bar names it and its border
/// is highlighted. The phone is not a pane of its own: number keys tap its
/// actions whatever has the focus.
///
/// ```swift
/// var focus = FocusPane.catalogue
/// focus = focus.next  // .about
/// ```
public enum FocusPane: String, CaseIterable, Hashable, Sendable {
  /// The scenario list: ↑↓ move the selection.
  case catalogue
  /// The notes on the scenario (pattern, fix, why it leaks, actions): scrolls.
  case about
  /// The scenario's code: scrolls (by default it shows the marked line).
  case code
  /// The detector overlay: ↑↓ pick a leak, `y` copies its retain path.
  case detector
  /// The event log: scrolls back (by default it follows the newest line).
  case log

  /// The pane after this one, wrapping around.
  public var next: FocusPane {
    let all = Self.allCases
    return all[(all.firstIndex(of: self)! + 1) % all.count]
  }

  /// The pane before this one, wrapping around.
  public var previous: FocusPane {
    let all = Self.allCases
    return all[(all.firstIndex(of: self)! + all.count - 1) % all.count]
  }

  /// How the status bar and the pane's border name it.
  public var title: String {
    switch self {
    case .catalogue: "Scenarios"
    case .about: "About"
    case .code: "Code"
    case .detector: "Detector"
    case .log: "Log"
    }
  }
}
