import RetainGraph

/// The catalogue pattern a leak kind is an instance of, and the `leaklab
/// lint` rule that finds it in source: a kind's cycle read by its shape —
/// what kinds of blocks it joins and through which references.
///
/// ```swift
/// LeakPattern.matching(cycle: path, tasks: [])?.line
/// // "pattern: a stored closure capturing its owner (catalogue closure-capture, lint rule stored-closure)"
/// ```
public struct LeakPattern: Sendable, Hashable, Codable {
  /// What the pattern is, in a few words.
  public var title: String
  /// The id of the catalogue scenario that teaches it (`leaklab` opens it).
  public var scenario: String
  /// The `leaklab lint` rule that finds it.
  public var lintRule: String

  /// Creates a pattern.
  public init(title: String, scenario: String, lintRule: String) {
    self.title = title
    self.scenario = scenario
    self.lintRule = lintRule
  }

  /// `pattern: a stored closure capturing its owner (catalogue closure-capture, lint rule stored-closure)`.
  public var line: String { "pattern: \(title) (catalogue \(scenario), lint rule \(lintRule))" }

  /// Every pattern, in the order they are tried: the first whose shape the cycle has names it.
  public static let all: [(pattern: LeakPattern, matches: @Sendable (Shape) -> Bool)] = [
    (
      LeakPattern(title: "a task that keeps what runs it", scenario: "task-loop", lintRule: "task-loop"),
      { $0.hasTask }
    ),
    (
      LeakPattern(
        title: "a Combine subscription stored by its subscriber", scenario: "combine-sink",
        lintRule: "combine-sink"),
      { $0.typeNames.contains { $0.hasPrefix("Sink") || $0.contains("AnyCancellable") } }
    ),
    (
      LeakPattern(
        title: "a repeating timer keeping its target", scenario: "foundation-timer",
        lintRule: "repeating-timer"),
      { $0.typeNames.contains { $0 == "Timer" || $0.hasSuffix("CFTimer") } }
    ),
    (
      LeakPattern(
        title: "a dispatch source's handler keeping its owner", scenario: "dispatch-source-timer",
        lintRule: "dispatch-source"),
      { $0.typeNames.contains { $0.hasPrefix("dispatch source") } }
    ),
    (
      LeakPattern(
        title: "a handler keeping its channel context", scenario: "handler-context",
        lintRule: "strong-back-reference"),
      { $0.typeNames.contains { $0.hasSuffix("ChannelHandlerContext") } }
    ),
    (
      LeakPattern(
        title: "a stored closure capturing its owner", scenario: "closure-capture", lintRule: "stored-closure"
      ),
      { $0.hasClosureCapture }
    ),
    (
      LeakPattern(
        title: "a strong back reference (a delegate, a parent)", scenario: "strong-delegate",
        lintRule: "strong-back-reference"),
      { $0.typeNames.count > 1 && !$0.hasClosureCapture }
    ),
  ]

  /// What a cycle is made of, for matching.
  public struct Shape: Sendable, Hashable {
    /// The types along the cycle.
    public var typeNames: [String]
    /// Whether a closure's capture is one of its references.
    public var hasClosureCapture: Bool
    /// Whether a Swift task is on it.
    public var hasTask: Bool
  }

  /// The pattern of a retain cycle read along `path` (its way back to its
  /// start); `tasks` are the indices of the path's objects that are Swift tasks.
  static func matching(cycle path: RetainPath, tasks: Set<Int>) -> LeakPattern? {
    let objects = path.steps.isEmpty ? [path.start] : [path.start] + path.steps.dropLast().map(\.target)
    let shape = Shape(
      typeNames: objects.map(\.typeName), hasClosureCapture: path.steps.contains(where: \.isClosureCapture),
      hasTask: !tasks.isEmpty || objects.contains { $0.typeName == "Task" })
    return all.first { $0.matches(shape) }?.pattern
  }
}
