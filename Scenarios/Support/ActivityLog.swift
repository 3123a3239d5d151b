import LeakClock
import ScreenKit

/// What scenario objects do after their screen closed: a leaked timer that
/// still ticks, a task still polling for a screen that is gone, a completion
/// that would crash. The app shows it in its log, as the consequence of the
/// leak: `StopwatchScreen#1, closed 12 s ago, ticked`.
///
/// Scenario code reports with ``record(_:_:)`` from the work itself (outside
/// the code the user reads); nothing is logged while the screen is open (the
/// phone shows it then). A source that keeps working is logged on its 1st,
/// 2nd, 3rd, 5th, 10th, 20th, 50th, 100th, … time, so a timer ticking for an
/// hour stays a few lines.
///
/// The log holds no reference to its sources: each is named when it
/// reports, by the run's detector (the same `Type#n` as in the label).
///
/// ```swift
/// environment.activity.record(self, "ticked")
/// // after the close: "StopwatchScreen#1, closed 12 s ago, ticked"
/// ```
@MainActor
public final class ActivityLog {
  /// One line for the app's log.
  public struct Entry: Equatable, Sendable {
    /// What the line reports.
    public enum Kind: Equatable, Sendable {
      /// Work that went on after the close.
      case activity
      /// Work that would crash the process here (an `unowned` reference to a
      /// freed object): the scenario did not run it.
      case wouldTrap(scenarioID: String)
    }

    /// When it happened, on the scenario's clock.
    public var time: Duration
    /// The line: `StopwatchScreen#1, closed 12 s ago, ticked`.
    public var text: String
    /// What kind of line it is.
    public var kind: Kind
  }

  /// The most entries kept until the app takes them.
  static let limit = 100

  private let scheduler: any Scheduler
  private var entries: [Entry] = []
  private var counts: [String: Int] = [:]
  /// Names a source (`StopwatchScreen#1`): the run's detector, set by the harness.
  var naming: (AnyObject) -> String? = { _ in nil }
  /// When the run's screen closed; `nil` while it is open.
  public internal(set) var closedAt: Duration?

  /// A log on `scheduler`'s clock.
  public init(scheduler: any Scheduler) {
    self.scheduler = scheduler
  }

  /// Notes that `source` did `what` (`"ticked"`, `"requested the score"`):
  /// logged when the screen has closed, on the source's 1st, 2nd, 3rd, 5th,
  /// 10th, … time.
  public func record(_ source: AnyObject, _ what: String) {
    append(name(of: source), isScreen: source is Screen, what, kind: .activity, thinned: true)
  }

  /// Notes that the screen named `name` (named while it was alive, with
  /// ``name(of:)``) is the subject of `what`, once.
  public func record(screenNamed name: String, _ what: String) {
    append(name, isScreen: true, what, kind: .activity, thinned: false)
  }

  /// Notes that work for the screen named `name` would crash the process
  /// here, and that the scenario did not run it (`scenarioID`'s
  /// `leaklab trap` runs it, in a process of its own).
  public func recordTrap(screenNamed name: String, _ what: String, scenarioID: String) {
    append(name, isScreen: true, what, kind: .wouldTrap(scenarioID: scenarioID), thinned: false)
  }

  /// The run's name for `source`: `StopwatchScreen#1`, as the label would say it.
  public func name(of source: AnyObject) -> String {
    naming(source) ?? String(describing: type(of: source))
  }

  /// A new run opened: nothing is logged until it closes, counts start again.
  func runOpened() {
    closedAt = nil
    counts = [:]
  }

  /// The run's screen closed now: from here on, work is logged.
  func runClosed() {
    closedAt = scheduler.now
  }

  /// Takes the entries logged so far, oldest first.
  public func drain() -> [Entry] {
    defer { entries = [] }
    return entries
  }

  /// Whether entries are waiting.
  public var isEmpty: Bool { entries.isEmpty }

  private func append(_ name: String, isScreen: Bool, _ what: String, kind: Entry.Kind, thinned: Bool) {
    guard let closedAt else { return }
    let count = (counts[name] ?? 0) + 1
    counts[name] = count
    guard !thinned || Self.isShown(count) else { return }
    let now = scheduler.now
    let ago = TimeSinceClose.text(now - closedAt)
    let times = thinned && count > 1 ? " (\(Self.ordinal(count)) time)" : ""
    let whose = isScreen ? "closed" : "its screen closed"
    entries.append(Entry(time: now, text: "\(name), \(whose) \(ago) ago, \(what)\(times)", kind: kind))
    if entries.count > Self.limit { entries.removeFirst(entries.count - Self.limit) }
  }

  /// 1, 2, 3, 5, 10, 20, 50, 100, 200, 500, …
  static func isShown(_ count: Int) -> Bool {
    if count <= 3 { return true }
    var step = 1
    while step * 10 <= count { step *= 10 }
    return count == step || count == 2 * step || count == 5 * step
  }

  /// `2nd`, `3rd`, `11th`, `22nd`.
  static func ordinal(_ number: Int) -> String {
    let suffix =
      switch (number % 10, number % 100) {
      case (_, 11...13): "th"
      case (1, _): "st"
      case (2, _): "nd"
      case (3, _): "rd"
      default: "th"
      }
    return "\(number)\(suffix)"
  }
}

/// Time since the close, in tenths of a second, as the log says it: `12.0 s`, `0.8 s`.
enum TimeSinceClose {
  static func text(_ duration: Duration) -> String {
    let tenths = max(
      0,
      Int(duration.components.seconds) * 10 + Int(duration.components.attoseconds / 100_000_000_000_000_000))
    return "\(tenths / 10).\(tenths % 10) s"
  }
}
