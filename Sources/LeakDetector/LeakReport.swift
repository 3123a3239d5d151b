/// A snapshot of everything the detector currently knows, for an overlay or a test.
public struct LeakReport: Sendable, Equatable {
  /// The scheduler time when the snapshot was taken.
  public var time: Duration
  /// Reported leaks in detection order, open and resolved.
  public var leaks: [LeakedInstance]
  /// Leaks recorded with ``LeakDecision/logOnly``: kept out of the label.
  public var logged: [LeakedInstance]
  /// Budgets exceeded right now, in the order they were exceeded.
  public var budgetIssues: [BudgetIssue]
  /// Expectations whose grace delay has not run out yet.
  public var pendingExpectations: Int

  /// A report with nothing in it, at time zero: what a fresh detector says.
  ///
  /// A placeholder for a view that shows a report before any detector ran:
  ///
  /// ```swift
  /// var report = LeakReport.empty
  /// report.summaryLabel  // "No issues detected"
  /// ```
  public static let empty = LeakReport(
    time: .zero, leaks: [], logged: [], budgetIssues: [], pendingExpectations: 0)

  /// Open reported leaks, in detection order.
  public var openLeaks: [LeakedInstance] { leaks.filter(\.isOpen) }

  /// Whether nothing is open: no open leak, no exceeded budget.
  public var isClean: Bool { openLeaks.isEmpty && budgetIssues.isEmpty }

  /// The summary label: `No issues detected`, or `Leaked: A#1, B#2, C (3/2)`.
  ///
  /// This is a contract that tests and step scripts read; see ``SummaryLabel``.
  public var summaryLabel: String {
    SummaryLabel.text(openLeaks: openLeaks.map(\.name), budgetIssues: budgetIssues.map(\.label))
  }
}

/// The text of the detector's summary label.
///
/// - No open issue: exactly `No issues detected`.
/// - Otherwise `Leaked: ` followed by the open leaked instances in detection
///   order, comma-separated, each `TypeName#n`, then budget issues as
///   `TypeName (live/max)`.
public enum SummaryLabel {
  /// The label when nothing is open.
  public static let clean = "No issues detected"
  /// The prefix of the label when something is open.
  public static let leakedPrefix = "Leaked: "

  /// Builds the label from open leak names and budget labels.
  public static func text(openLeaks: [String], budgetIssues: [String]) -> String {
    let items = openLeaks + budgetIssues
    return items.isEmpty ? clean : leakedPrefix + items.joined(separator: ", ")
  }
}
