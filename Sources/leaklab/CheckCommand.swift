import ArgumentParser
import Foundation
import LeakClock
import Scenarios

/// `leaklab check`: runs every scenario in both modes headless and compares
/// the detector's verdict with the declared one.
struct CheckCommand: ParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "check",
    abstract: "Run every scenario leaky and fixed on a manual clock; fail on any mismatch.",
    discussion: "Exits with status 1 if any detected verdict differs from the scenario's declaration."
  )

  @Flag(help: "Print a JSON array, one object per scenario and mode (schema in Scenarios/README.md).")
  var json = false

  func run() throws {
    let results = MainRunLoop.run { await CatalogueCheck.run() }
    CommandOutput.line(json ? try Self.json(results) : Self.table(results))
    if results.contains(where: { !$0.match }) { throw ExitCode.failure }
  }

  /// The results as a JSON array with sorted keys.
  static func json(_ results: [ScenarioCheckResult]) throws -> String {
    let encoder = JSONEncoder()
    encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
    return String(decoding: try encoder.encode(results), as: UTF8.self)
  }

  /// The results as a text table, then a one-line summary.
  static func table(_ results: [ScenarioCheckResult]) -> String {
    let header = ["scenario", "mode", "expected", "detected", "leaked objects", "resolved after", "match"]
    let rows = results.map { result in
      [
        result.scenarioID,
        result.mode.rawValue,
        result.expected.kind.rawValue,
        result.detected.kind.rawValue,
        result.detected.leakedTypeNames.isEmpty
          ? "-" : result.detected.leakedTypeNames.joined(separator: ", "),
        result.detected.resolvedAfter.map { "\($0.seconds) s" } ?? "-",
        result.match ? "yes" : "NO (expected \(result.expected))",
      ]
    }
    let mismatches = results.filter { !$0.match }.count
    let summary =
      mismatches == 0
      ? "\(results.count) of \(results.count) runs match their declared verdict."
      : "\(mismatches) of \(results.count) runs do not match their declared verdict."
    return (tableLines(header: header, rows: rows) + ["", summary]).joined(separator: "\n")
  }
}
