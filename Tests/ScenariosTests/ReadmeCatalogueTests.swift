import Foundation
import LeakLabTestSupport
import Testing

@testable import Scenarios

/// The catalogue table in docs/app.md is the catalogue, as the key table is the key map.
@Suite struct ReadmeCatalogueTests {
  /// The table docs/app.md must contain: one row per scenario, in catalogue order.
  static var markdownTable: String {
    var lines = ["| id | pattern | the leaky form (`strong`) leaks |", "|---|---|---|"]
    for scenario in Catalogue.all {
      let leaks =
        scenario.detectorBlindSpot.map { "nothing: \($0)" } ?? leaks(scenario.expectedVerdict(for: .strong))
      lines.append("| `\(scenario.id)` | \(scenario.pattern) | \(leaks) |")
    }
    return lines.joined(separator: "\n")
  }

  static func leaks(_ verdict: Verdict) -> String {
    let names = verdict.leakedTypeNames.map { "`\($0)`" }.joined(separator: ", ")
    switch verdict {
    case .clean: return "nothing"
    case .leaks: return names
    case .temporary(_, let after): return "\(names), until \(after.components.seconds) s after the close"
    }
  }

  @Test func theReadmeCatalogueTableIsTheCatalogue() throws {
    let readme = try String(contentsOf: packageRoot.appendingPathComponent("docs/app.md"), encoding: .utf8)
    #expect(
      readme.contains(Self.markdownTable),
      "update the catalogue table in docs/app.md:\n\(Self.markdownTable)")
  }

  @Test func theTableHasARowPerScenarioAndSaysWhatATemporaryLeakIs() {
    let rows = Self.markdownTable.split(separator: "\n").dropFirst(2)
    #expect(rows.count == Catalogue.all.count)
    #expect(
      rows.contains { $0.hasPrefix("| `delayed-dispatch` |") && $0.hasSuffix("until 10 s after the close |") }
    )
    #expect(Self.leaks(.leaks(["B", "A"])) == "`A`, `B`")
  }
}
