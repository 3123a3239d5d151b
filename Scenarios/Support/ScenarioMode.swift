/// Which form of a scenario runs: the leaky one or the fixed one.
///
/// In prose the modes are *leaky* and *fixed*; in code, scripts and the
/// `leaklab check --json` output they are `strong` and `weak`, after the
/// capture or reference that makes the difference.
///
/// ```swift
/// let screen = Catalogue.scenario(id: "closure-capture")!.makeScreen(mode: .strong, environment: environment)
/// ```
public enum ScenarioMode: String, CaseIterable, Sendable, Codable {
  /// The leaky form: a strong capture or a strong back reference.
  case strong
  /// The fixed form: a weak (or unowned) capture, a weak reference, or a cleanup.
  case weak

  /// `leaky` or `fixed`, for people.
  public var prose: String {
    switch self {
    case .strong: "leaky"
    case .weak: "fixed"
    }
  }

  /// The other mode: what the capture toggle switches to.
  public var toggled: ScenarioMode {
    switch self {
    case .strong: .weak
    case .weak: .strong
    }
  }
}
