import Foundation
import GraphLayout
import TextGrid

extension ScenarioExplanation {
  /// What `leaklab explain --format` prints.
  public enum Format: String, CaseIterable, Sendable {
    /// The retain paths, then the run's graph drawn with box-drawing characters.
    case text
    /// The run's graph in Graphviz DOT (`| dot -Tsvg > leak.svg`).
    case dot
    /// The run's graph as a Mermaid flowchart.
    case mermaid
    /// The run, its leaks and its graph as JSON.
    case json
  }

  /// The output of `leaklab explain` in `format`, drawings fitted to `width` columns.
  ///
  /// ```swift
  /// let explanation = ScenarioExplanation(Catalogue.alertActionCapture, mode: .strong)
  /// print(try explanation.output(.dot))  // digraph "alert_action_capture" { … }
  /// ```
  public func output(_ format: Format, width: Int = 80) throws -> String {
    switch format {
    case .text:
      var text = lines
      if !graph.isEmpty {
        let picture = graph.draw(fitting: Size(width: width, height: 1000))
        text += [""] + picture.lines + [""] + graph.legend(width: width).lines
      }
      return text.joined(separator: "\n") + "\n"
    case .dot:
      return graph.dot(name: scenario.id)
    case .mermaid:
      return graph.mermaid()
    case .json:
      let encoder = JSONEncoder()
      encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
      return String(decoding: try encoder.encode(JSONReport(self)), as: UTF8.self) + "\n"
    }
  }

  /// `leaklab explain --format json`: the run, each leak, and the graph.
  struct JSONReport: Encodable {
    struct Leak: Encodable {
      var name: String
      var retainPath: String?
      var folded: [String]
      /// `allocated in … at File.swift:42` (`--stacks`).
      var allocationSite: String?
    }

    var scenario: String
    var mode: String
    var summaryLabel: String
    var leaks: [Leak]
    var graph: ReferenceGraph

    @MainActor
    init(_ explanation: ScenarioExplanation) {
      scenario = explanation.scenario.id
      mode = explanation.mode.rawValue
      summaryLabel = explanation.summaryLabel
      leaks = explanation.leaks.map {
        Leak(name: $0.name, retainPath: $0.retainPath, folded: $0.folded, allocationSite: $0.allocationSite)
      }
      graph = explanation.graph
    }
  }
}
