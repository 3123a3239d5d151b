/// A chain of references from one object to another.
///
/// A cycle starts and ends at the explained object; a root path starts at a
/// registered root and ends at it. The description reads as the path a
/// developer would follow in the code:
///
/// ```swift
/// print(path)
/// // AlertController#1 → actions[0]: AlertAction → handler: closure in
/// // AlertScreen.showAlert() → captures AlertController#1 (strong)
/// ```
public struct RetainPath: Sendable, Hashable, CustomStringConvertible {
  /// Where the path starts.
  public var start: ObjectInfo
  /// The references followed, in order.
  public var steps: [Reference]

  /// Creates a path.
  public init(start: ObjectInfo, steps: [Reference]) {
    self.start = start
    self.steps = steps
  }

  /// The object the path ends at.
  public var end: ObjectInfo { steps.last?.target ?? start }

  /// Whether any step was found by a conservative scan.
  public var isConservative: Bool { steps.contains { $0.isConservative } }

  public var description: String {
    var text = start.name
    for step in steps { text += " → " + step.step }
    if let last = steps.last { text += " (\(last.strength.rawValue))" }
    return text
  }
}
