import Foundation
import LeakLabTestSupport
import LeakLint
import Testing

/// The rule table in LeakLint's README is checked against the rules themselves.
@Suite struct RuleReferenceTests {
  @Test func theReadmeTableNamesEveryRuleWithItsTitleAndSeverity() throws {
    let readme = try String(
      contentsOf: packageRoot.appendingPathComponent("Sources/LeakLint/README.md"),
      encoding: .utf8)
    let rows = readme.split(separator: "\n").filter { $0.hasPrefix("| `") }
    #expect(rows.count == LintRule.allCases.count)
    for rule in LintRule.allCases {
      #expect(
        rows.contains { $0.hasPrefix("| `\(rule.rawValue)` | \(rule.title) | \(rule.severity.rawValue) |") },
        "\(rule.rawValue)")
    }
  }

  @Test func everyRuleExplainsItsCycleInOneSentenceAndGivesAFix() {
    for rule in LintRule.allCases {
      #expect(rule.explanation.hasSuffix("."))
      #expect(rule.explanation.filter { $0 == "." }.count <= 2, "\(rule.rawValue)")
      #expect(!rule.fix.isEmpty)
    }
  }
}
