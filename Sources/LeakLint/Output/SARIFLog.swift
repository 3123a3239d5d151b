import Foundation

/// Findings as a SARIF 2.1.0 log, for code-scanning dashboards.
///
/// One run; the driver lists every rule (id, title, explanation, fix as help,
/// default level); each result names its rule by id and index, its level
/// (`warning` or `note`), the message, and one physical location with a
/// relative URI and a 1-based line and column.
enum SARIFLog {
  static let schema = "https://json.schemastore.org/sarif-2.1.0.json"

  static func object(for findings: [LintFinding]) -> [String: Any] {
    let rules = LintRule.allCases
    let driver: [String: Any] = [
      "name": "leaklab lint",
      "rules": rules.map { rule in
        [
          "id": rule.rawValue,
          "name": rule.title,
          "shortDescription": ["text": rule.title],
          "fullDescription": ["text": rule.explanation],
          "help": ["text": rule.fix],
          "defaultConfiguration": ["level": rule.severity.rawValue],
        ] as [String: Any]
      },
    ]
    let results: [[String: Any]] = findings.map { finding in
      [
        "ruleId": finding.rule.rawValue,
        "ruleIndex": rules.firstIndex(of: finding.rule) ?? 0,
        "level": finding.severity.rawValue,
        "message": ["text": finding.message + " Fix: " + finding.fix],
        "locations": [
          [
            "physicalLocation": [
              "artifactLocation": ["uri": uri(finding.file)],
              "region": ["startLine": finding.line, "startColumn": finding.column],
            ]
          ]
        ],
      ]
    }
    return [
      "$schema": schema,
      "version": "2.1.0",
      "runs": [["tool": ["driver": driver], "results": results]],
    ]
  }

  /// A relative path as a URI reference: `./` dropped, characters escaped.
  static func uri(_ path: String) -> String {
    var trimmed = path
    while trimmed.hasPrefix("./") { trimmed.removeFirst(2) }
    return trimmed.addingPercentEncoding(withAllowedCharacters: .urlPathAllowed) ?? trimmed
  }
}
