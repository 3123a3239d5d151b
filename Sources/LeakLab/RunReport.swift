import Foundation
import LeakDetector

/// What `r` writes: the current run as JSON — its scenario and form, the
/// summary label, each leaked instance with its status and retain path, the
/// check after the close, and the log.
///
/// ```json
/// {
///   "label" : "Leaked: SyncScreen#1",
///   "leaks" : [ { "name" : "SyncScreen#1", "status" : "open", "retainPath" : "retain cycle: …" } ],
///   "scenario" : "delayed-dispatch", "mode" : "strong", …
/// }
/// ```
struct RunReport: Encodable, Equatable {
  struct Leak: Encodable, Equatable {
    var name: String
    var typeName: String
    var instance: Int
    /// `open` or `resolved`.
    var status: String
    var closedAtSeconds: Double
    var detectedAtSeconds: Double
    var resolvedAfterSeconds: Double?
    var retainPath: String?
    var aliveInside: [String]

    enum CodingKeys: String, CodingKey {
      case name, typeName, instance, status, closedAtSeconds, detectedAtSeconds, resolvedAfterSeconds
      case retainPath, aliveInside
    }

    // Written by hand so that a missing value is `null`, as documented, not a missing key.
    func encode(to encoder: any Encoder) throws {
      var container = encoder.container(keyedBy: CodingKeys.self)
      try container.encode(name, forKey: .name)
      try container.encode(typeName, forKey: .typeName)
      try container.encode(instance, forKey: .instance)
      try container.encode(status, forKey: .status)
      try container.encode(closedAtSeconds, forKey: .closedAtSeconds)
      try container.encode(detectedAtSeconds, forKey: .detectedAtSeconds)
      try container.encode(resolvedAfterSeconds, forKey: .resolvedAfterSeconds)
      try container.encode(retainPath, forKey: .retainPath)
      try container.encode(aliveInside, forKey: .aliveInside)
    }
  }

  struct Check: Encodable, Equatable {
    var checked: String
    var objects: Int
    var alive: Int
  }

  struct Line: Encodable, Equatable {
    var timeSeconds: Double
    var kind: String
    var text: String
  }

  var scenario: String?
  var title: String?
  var mode: String?
  var label: String
  var timeSeconds: Double
  var leaks: [Leak]
  var budgetIssues: [String]
  var check: Check?
  var log: [Line]

  init(state: AppState) {
    scenario = state.lastRun?.id
    title = state.lastRunEntry?.title
    mode = state.lastRun?.mode.rawValue
    let report = state.report
    label = report.summaryLabel
    timeSeconds = state.now.seconds
    leaks = report.leaks.map { leak in
      var resolvedAfter: Double?
      if case .resolved(let after) = leak.status { resolvedAfter = after.seconds }
      return Leak(
        name: leak.name, typeName: leak.typeName, instance: leak.instance,
        status: leak.isOpen ? "open" : "resolved", closedAtSeconds: leak.expectedAt.seconds,
        detectedAtSeconds: leak.detectedAt.seconds, resolvedAfterSeconds: resolvedAfter,
        retainPath: leak.retainPath, aliveInside: leak.folded)
    }
    budgetIssues = report.budgetIssues.map(\.label)
    check = state.lastCheck.map { Check(checked: $0.name, objects: $0.objects, alive: $0.alive) }
    log = state.log.map { Line(timeSeconds: $0.time.seconds, kind: $0.kind.rawValue, text: $0.text) }
  }

  enum CodingKeys: String, CodingKey {
    case scenario, title, mode, label, timeSeconds, leaks, budgetIssues, check, log
  }

  // Written by hand so that a missing value is `null`, as documented, not a missing key.
  func encode(to encoder: any Encoder) throws {
    var container = encoder.container(keyedBy: CodingKeys.self)
    try container.encode(scenario, forKey: .scenario)
    try container.encode(title, forKey: .title)
    try container.encode(mode, forKey: .mode)
    try container.encode(label, forKey: .label)
    try container.encode(timeSeconds, forKey: .timeSeconds)
    try container.encode(leaks, forKey: .leaks)
    try container.encode(budgetIssues, forKey: .budgetIssues)
    try container.encode(check, forKey: .check)
    try container.encode(log, forKey: .log)
  }

  /// `leaklab-report-3-delayed-dispatch-strong.json` for run 3; `leaklab-report-0.json` before any run.
  func fileName(run: Int) -> String {
    let parts = ["leaklab-report", "\(run)"] + [scenario, mode].compactMap { $0 }
    return parts.joined(separator: "-") + ".json"
  }

  /// The report as pretty-printed JSON with sorted keys.
  func json() throws -> Data {
    let encoder = JSONEncoder()
    encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
    return try encoder.encode(self)
  }
}
