/// One line of the event log: what happened and when, on the app's clock.
///
/// ```swift
/// LogEntry(time: .seconds(2), kind: .detected, text: "ClosureScreen#1 still alive 1.0 s after close")
/// ```
public struct LogEntry: Equatable, Sendable {
  /// What kind of event a log line records.
  public enum Kind: String, CaseIterable, Equatable, Sendable {
    /// A scenario's screen was pushed.
    case opened
    /// A scenario's screen left the navigation stack.
    case closed
    /// A button or alert action was tapped.
    case action
    /// The detector started waiting for objects to deallocate.
    case expected
    /// The grace delay passed and the detector checked them: all deallocated, or how many did not.
    case checked
    /// An object outlived its grace delay.
    case detected
    /// A detected object deallocated after all.
    case resolved
    /// A budget was exceeded or is back within bounds.
    case budget
    /// Work went on after its screen closed: a leaked timer ticked, a task polled.
    case running
    /// Work would have crashed the app here (an `unowned` reference to a freed object).
    case trap
  }

  /// When it happened, relative to the app's start.
  public var time: Duration
  /// What kind of event it was.
  public var kind: Kind
  /// What happened, in a few words.
  public var text: String

  /// Creates a log line.
  public init(time: Duration, kind: Kind, text: String) {
    self.time = time
    self.kind = kind
    self.text = text
  }
}
