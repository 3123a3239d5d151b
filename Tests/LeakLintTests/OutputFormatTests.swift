import Foundation
import LeakLint
import Testing

/// The three output formats: the compiler's, JSON, SARIF 2.1.0.
@Suite struct OutputFormatTests {
  static let findings = Linter().lint(
    source: """
      import Dispatch
      final class Player {
        var onFinish: (() -> Void)?
        func start() {
          onFinish = { self.stop() }
          DispatchQueue.main.asyncAfter(deadline: .now() + 1) { self.stop() }
        }
        func stop() {}
      }
      """, path: "Sources/App/Player.swift")

  @Test func textIsTheCompilersFormatWithAFixNote() {
    let lines = LintOutputFormat.text.render(Self.findings).split(separator: "\n").map(String.init)
    #expect(lines.count == 4)
    #expect(
      lines[0].hasPrefix("Sources/App/Player.swift:5:16: warning: self keeps this closure in `onFinish`"))
    #expect(lines[0].hasSuffix(" [stored-closure]"))
    #expect(lines[1].hasPrefix("Sources/App/Player.swift:5:16: note: fix: Capture weakly"))
    #expect(lines[2].hasPrefix("Sources/App/Player.swift:6:57: note: temporary leak:"))
  }

  @Test func jsonHasTheDocumentedFields() throws {
    let data = Data(LintOutputFormat.json.render(Self.findings).utf8)
    let array = try #require(try JSONSerialization.jsonObject(with: data) as? [[String: Any]])
    #expect(array.count == 2)
    for object in array {
      #expect(Set(object.keys) == ["file", "line", "column", "rule", "severity", "message", "fix"])
    }
    #expect(array[0]["rule"] as? String == "stored-closure")
    #expect(array[0]["line"] as? Int == 5)
    #expect(array[1]["severity"] as? String == "note")
    let decoded = try JSONDecoder().decode([LintFinding].self, from: data)
    #expect(decoded == Self.findings)
  }

  @Test func sarifIsAVersion210LogWithRulesAndResults() throws {
    let data = Data(LintOutputFormat.sarif.render(Self.findings).utf8)
    let log = try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
    #expect(log["version"] as? String == "2.1.0")
    #expect((log["$schema"] as? String)?.contains("sarif") == true)
    let run = try #require((log["runs"] as? [[String: Any]])?.first)
    let driver = try #require((run["tool"] as? [String: Any])?["driver"] as? [String: Any])
    let rules = try #require(driver["rules"] as? [[String: Any]])
    #expect(rules.compactMap { $0["id"] as? String } == LintRule.allCases.map(\.rawValue))
    let results = try #require(run["results"] as? [[String: Any]])
    #expect(results.count == 2)
    let first = results[0]
    #expect(first["ruleId"] as? String == "stored-closure")
    #expect(first["level"] as? String == "warning")
    #expect((results[1]["level"] as? String) == "note")
    let index = try #require(first["ruleIndex"] as? Int)
    #expect(rules[index]["id"] as? String == "stored-closure")
    let location = try #require(
      (first["locations"] as? [[String: Any]])?.first?["physicalLocation"] as? [String: Any])
    #expect((location["artifactLocation"] as? [String: Any])?["uri"] as? String == "Sources/App/Player.swift")
    #expect((location["region"] as? [String: Any])?["startLine"] as? Int == 5)
    #expect((location["region"] as? [String: Any])?["startColumn"] as? Int == 16)
  }

  @Test func noFindingsPrintNothingInTextAndAnEmptyArrayInJSON() throws {
    #expect(LintOutputFormat.text.render([]).isEmpty)
    let array = try JSONSerialization.jsonObject(with: Data(LintOutputFormat.json.render([]).utf8)) as? [Any]
    #expect(array?.isEmpty == true)
  }
}
