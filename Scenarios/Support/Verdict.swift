import LeakClock

/// What the leak detector says about a scenario run after the screen closed.
///
/// Leaked objects are named by type (`AlertController`), sorted, without the
/// per-run instance number, so a declared expectation compares equal to what a
/// run detects.
///
/// ```swift
/// let expected = Verdict.temporary(["SyncScreen"], resolvedAfter: .seconds(10))
/// #expect(run.detected == expected)
/// ```
public enum Verdict: Sendable, Equatable, CustomStringConvertible {
  /// Nothing stays alive after the grace delay.
  case clean
  /// These objects stay alive for good.
  case leaks([String])
  /// These objects are detected after the grace delay and deallocate later:
  /// `resolvedAfter` is measured from the moment the screen closed.
  case temporary([String], resolvedAfter: Duration)

  /// The kind of verdict, as the `check --json` output spells it.
  public enum Kind: String, Sendable, Codable {
    case clean, leaks, temporary
  }

  /// Creates a permanent-leak verdict; the type names are sorted.
  public static func leaking(_ typeNames: String...) -> Verdict {
    .leaks(typeNames.sorted())
  }

  /// Creates a temporary-leak verdict; the type names are sorted.
  public static func leaking(_ typeNames: String..., resolvedAfter: Duration) -> Verdict {
    .temporary(typeNames.sorted(), resolvedAfter: resolvedAfter)
  }

  /// Whether the verdict is clean, a permanent leak or a temporary one.
  public var kind: Kind {
    switch self {
    case .clean: .clean
    case .leaks: .leaks
    case .temporary: .temporary
    }
  }

  /// The type names of the leaked objects, sorted; empty when clean.
  public var leakedTypeNames: [String] {
    switch self {
    case .clean: []
    case .leaks(let names), .temporary(let names, _): names.sorted()
    }
  }

  /// When a temporary leak resolved, measured from the close; `nil` otherwise.
  public var resolvedAfter: Duration? {
    if case .temporary(_, let after) = self { after } else { nil }
  }

  /// `clean`, `leaks FeedService, LoadFeedUseCase`, `temporary SyncScreen (resolved after 10.0 s)`.
  public var description: String {
    switch self {
    case .clean: "clean"
    case .leaks(let names): "leaks \(names.sorted().joined(separator: ", "))"
    case .temporary(let names, let after):
      "temporary \(names.sorted().joined(separator: ", ")) (resolved after \(after.seconds) s)"
    }
  }

  public static func == (lhs: Verdict, rhs: Verdict) -> Bool {
    lhs.kind == rhs.kind && lhs.leakedTypeNames == rhs.leakedTypeNames
      && lhs.resolvedAfter == rhs.resolvedAfter
  }
}
