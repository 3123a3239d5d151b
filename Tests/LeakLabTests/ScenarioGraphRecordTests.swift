import Foundation
import GraphLayout
import LeakLabTestSupport
import Scenarios
import Testing

@testable import LeakLab

/// The explain view of a fixed form draws the leaky form's graph from a
/// record (`Sources/LeakLab/ScenarioGraphs+Recorded.swift`); this test runs
/// every leaky form again and fails when the record is stale
/// (`LEAKLAB_RECORD_SNAPSHOTS=1` rewrites it).
@MainActor
@Suite struct ScenarioGraphRecordTests {
  static let recordPath = "Sources/LeakLab/ScenarioGraphs+Recorded.swift"

  /// The scenarios whose leaky form leaks through a cycle or a registered
  /// root, which an in-process run draws the same every time.
  static var recorded: [Scenario] {
    Catalogue.all.filter {
      $0.detectorBlindSpot == nil && !ExplainFormatTests.heldOnlyFromARoot.contains($0.id)
    }
  }

  static func makeRecord() -> String {
    var entries: [String] = []
    for scenario in recorded.sorted(by: { $0.id < $1.id }) {
      let json = ScenarioExplanation(scenario, mode: .strong).graph.json()
      // Indented as `swift format` leaves it: the text and the closing delimiter at 4.
      let body = json.split(separator: "\n").map { "    " + $0 }.joined(separator: "\n")
      entries.append("    \"\(scenario.id)\": #\"\"\"\n\(body)\n    \"\"\"#,")
    }
    return """
      // Recorded by LeakLabTests (ScenarioGraphRecordTests) from each scenario's leaky
      // form; `LEAKLAB_RECORD_SNAPSHOTS=1 swift test` rewrites it.

      extension ScenarioGraphs {
        /// Each leaky form's graph as JSON, by scenario id.
        static let recordedJSON: [String: String] = [
      \(entries.joined(separator: "\n"))
        ]
      }

      """
  }

  @Test func theRecordIsWhatTheLeakyFormsDrawNow() throws {
    let url = packageRoot.appendingPathComponent(Self.recordPath)
    let record = Self.makeRecord()
    if ProcessInfo.processInfo.environment["LEAKLAB_RECORD_SNAPSHOTS"] == "1" {
      try record.write(to: url, atomically: true, encoding: .utf8)
      Issue.record("Recorded \(Self.recordPath); run again without LEAKLAB_RECORD_SNAPSHOTS")
      return
    }
    let current = try String(contentsOf: url, encoding: .utf8)
    let difference = lineDifference(expected: current, actual: record)
    #expect(difference == nil, "\(difference ?? "")")
  }

  @Test func everyRecordedGraphHasACulpritTheFixedFormDrawsDashed() throws {
    for scenario in Self.recorded {
      let leaky = try #require(ScenarioGraphs.strongForm(of: scenario.id), "\(scenario.id) not recorded")
      let culprits = leaky.edges.filter(\.isCulprit)
      let fixed = ScenarioGraphs.fixed(leaky)
      #expect(fixed.nodes.allSatisfy { !$0.isLeaked })
      #expect(fixed.edges.allSatisfy { !$0.isCulprit })
      for culprit in culprits {
        #expect(
          fixed.edges.contains { $0.from == culprit.from && $0.to == culprit.to && $0.strength == .weak })
      }
    }
  }
}
