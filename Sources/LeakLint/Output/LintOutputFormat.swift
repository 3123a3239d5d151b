import Foundation

/// How `leaklab lint` prints findings.
///
/// - `text`: the compiler's format, `file:line:column: warning: message [rule]`
///   and a `note: fix: …` line under it, so editors and CI annotate them.
/// - `json`: an array of objects with `file`, `line`, `column`, `rule`,
///   `severity`, `message`, `fix` (see the library's README for the schema).
/// - `sarif`: SARIF 2.1.0, one run, the rules in the tool's driver.
///
/// ```swift
/// let text = LintOutputFormat.json.render(findings)
/// ```
public enum LintOutputFormat: String, Sendable, CaseIterable {
  case text
  case json
  case sarif

  /// The findings in this format, ending with a newline (nothing for no findings in `text`).
  public func render(_ findings: [LintFinding]) -> String {
    switch self {
    case .text:
      return findings.map { $0.compilerFormat + "\n" + $0.fixNote + "\n" }.joined()
    case .json:
      return Self.json(findings.map(Self.object(for:))) + "\n"
    case .sarif:
      return Self.json(SARIFLog.object(for: findings)) + "\n"
    }
  }

  static func object(for finding: LintFinding) -> [String: Any] {
    [
      "file": finding.file, "line": finding.line, "column": finding.column, "rule": finding.rule.rawValue,
      "severity": finding.severity.rawValue, "message": finding.message, "fix": finding.fix,
    ]
  }

  static func json(_ object: Any) -> String {
    let data =
      (try? JSONSerialization.data(withJSONObject: object, options: [.prettyPrinted, .sortedKeys])) ?? Data()
    return String(decoding: data, as: UTF8.self)
  }
}
