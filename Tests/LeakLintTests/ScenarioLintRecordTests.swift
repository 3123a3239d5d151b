import Foundation
import LeakLabTestSupport
import LeakLint
import Scenarios
import Testing

/// The app shows, in its code pane, what `leaklab lint` finds in each form of
/// each scenario. It reads a record (`Sources/LeakLab/ScenarioLint+Recorded.swift`)
/// instead of parsing sources at run time; this test lints the forms again and
/// fails when the record is stale (`LEAKLAB_RECORD_SNAPSHOTS=1` rewrites it).
@Suite struct ScenarioLintRecordTests {
  static let recordPath = "Sources/LeakLab/ScenarioLint+Recorded.swift"

  /// The record's source, made from the lint's findings now.
  static func makeRecord() throws -> String {
    var entries: [String] = []
    for scenario in Catalogue.all.sorted(by: { $0.id < $1.id }) {
      for mode in [ScenarioMode.strong, .weak] {
        let form = try ScenarioForm(scenario, mode: mode)
        let lines = form.text.split(separator: "\n", omittingEmptySubsequences: false)
        let findings = try form.findings().filter { $0.file == form.path }
        guard !findings.isEmpty else {
          entries.append("    \"\(scenario.id)/\(mode.rawValue)\": [],")
          continue
        }
        let items = findings.map { finding in
          var code = String(lines[finding.line - 1])
          if let marker = code.range(of: "// leaklab:") { code = String(code[..<marker.lowerBound]) }
          code = code.trimmingCharacters(in: .whitespaces)
          let escaped = code.replacingOccurrences(of: "\\", with: "\\\\")
            .replacingOccurrences(of: "\"", with: "\\\"")
          return [
            "      Finding(",
            "        rule: \"\(finding.rule.rawValue)\", title: \"\(finding.rule.title)\",",
            "        line: \"\(escaped)\")",
          ].joined(separator: "\n")
        }
        let key = "    \"\(scenario.id)/\(mode.rawValue)\": [\n"
        entries.append(key + items.joined(separator: ",\n") + "\n    ],")
      }
    }
    return """
      // Recorded by LeakLintTests (ScenarioLintRecordTests) from `leaklab lint` on both
      // forms of every scenario; `LEAKLAB_RECORD_SNAPSHOTS=1 swift test` rewrites it.

      extension ScenarioLint {
        /// The lint's findings by `scenario-id/mode` (`[]`: none); a scenario not listed was not linted.
        static let recorded: [String: [Finding]] = [
      \(entries.joined(separator: "\n"))
        ]
      }

      """
  }

  @Test func theAppsRecordIsWhatTheLintFindsNow() throws {
    let url = packageRoot.appendingPathComponent(Self.recordPath)
    let record = try Self.makeRecord()
    if ProcessInfo.processInfo.environment["LEAKLAB_RECORD_SNAPSHOTS"] == "1" {
      try record.write(to: url, atomically: true, encoding: .utf8)
      Issue.record("Recorded \(Self.recordPath); run again without LEAKLAB_RECORD_SNAPSHOTS")
      return
    }
    let current = try String(contentsOf: url, encoding: .utf8)
    #expect(current == record, "\(Self.recordPath) is stale; LEAKLAB_RECORD_SNAPSHOTS=1 rewrites it")
  }

  @Test func everyLeakyFormIsRecordedAndNoFixedFormIs() throws {
    let record = try String(contentsOf: packageRoot.appendingPathComponent(Self.recordPath), encoding: .utf8)
    for scenario in Catalogue.all {
      #expect(record.contains("\"\(scenario.id)/strong\": ["), "\(scenario.id)")
      #expect(record.contains("\"\(scenario.id)/weak\": [],"), "\(scenario.id)")
    }
  }
}
