import Foundation
import GraphLayout
import LeakLab
import LeakLabTestSupport
import Scenarios
import Testing

/// `leaklab explain --format text|dot|mermaid|json` for every scenario: each
/// format names every leaked instance, marks the culprit of each cycle, and
/// the DOT is rendered by Graphviz.
@MainActor
@Suite struct ExplainFormatTests {
  /// The scenarios whose leaky form leaks (the others' mistake is one no detector sees).
  nonisolated static let ids = Catalogue.all.filter { $0.detectorBlindSpot == nil }.map(\.id)
  /// Scenarios that only a path from a true root explains, which in-process
  /// runs do not search for: their exports are checked from `leaklab explain`
  /// (`LibraryRootExplainCommandTests`).
  nonisolated static let heldOnlyFromARoot: Set<String> = ["dispatch-source-timer", "abandoned-memory"]
  nonisolated static let explainedInProcess = ids.filter { !heldOnlyFromARoot.contains($0) }

  /// One run per scenario and form, shared by the tests below: a run searches
  /// the process's memory for root paths on the main actor, which other
  /// main-actor tests wait for, so each is made once, not once per format.
  /// (Its values hold no objects: addresses are numbers, not references.)
  private static var runs: [String: ScenarioExplanation] = [:]

  private func explanation(_ id: String, _ mode: ScenarioMode = .strong) throws -> ScenarioExplanation {
    let key = "\(id)/\(mode.rawValue)"
    if let run = Self.runs[key] { return run }
    let run = ScenarioExplanation(try #require(Catalogue.scenario(id: id)), mode: mode)
    Self.runs[key] = run
    return run
  }

  private func hasCycle(_ explanation: ScenarioExplanation) -> Bool {
    explanation.leaks.contains { $0.retainPath?.hasPrefix("retain cycle") == true }
  }

  // MARK: DOT

  @Test(
    "The DOT of every leaky scenario renders in Graphviz with every leak and the culprit",
    arguments: explainedInProcess)
  func dot(id: String) throws {
    let explanation = try explanation(id)
    let dot = try explanation.output(.dot)
    #expect(dot.hasPrefix("digraph \"\(id)\" {"))
    let svg = try Graphviz.svg(from: dot)
    for leak in explanation.leaks {
      #expect(
        dot.contains("\"\(ReferenceGraph.identifier(for: leak.name))\" [label=\"\(leak.name)\\nleaked\""))
      #expect(svg.contains(leak.name), "\(leak.name) not drawn")
    }
    #expect(dot.contains("color=red") == hasCycle(explanation))
    #expect(svg.contains("stroke=\"red\"") == hasCycle(explanation))
  }

  @Test("The DOT of a fixed scenario is an empty graph that still renders", arguments: ids)
  func dotWhenClean(id: String) throws {
    let dot = try explanation(id, .weak).output(.dot)
    #expect(!dot.contains("->"))
    _ = try Graphviz.svg(from: dot)
  }

  // MARK: Mermaid

  @Test(
    "The Mermaid of every leaky scenario has every leak, each edge once, the culprit thick",
    arguments: explainedInProcess)
  func mermaid(id: String) throws {
    let explanation = try explanation(id)
    let lines = try explanation.output(.mermaid).split(separator: "\n").map(String.init)
    #expect(lines.first == "flowchart TD")
    for leak in explanation.leaks {
      let node = ReferenceGraph.identifier(for: leak.name)
      #expect(lines.contains { $0.hasPrefix("  \(node)[\"") }, "\(leak.name)")
    }
    let arrows = lines.filter { $0.contains("-->|") || $0.contains("-.->|") || $0.contains("==>|") }
    #expect(arrows.count == explanation.graph.edges.count)
    #expect(arrows.contains { $0.contains("==>|") } == hasCycle(explanation))
    #expect(!lines.contains { $0.contains("<A>") }, "generic brackets escaped")
  }

  // MARK: JSON

  @Test("The JSON of every scenario lists its leaks and a graph that decodes", arguments: ids)
  func json(id: String) throws {
    for mode in [ScenarioMode.strong, .weak] {
      let explanation = try explanation(id, mode)
      let data = Data(try explanation.output(.json).utf8)
      let object = try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
      #expect(object["scenario"] as? String == id)
      #expect(object["mode"] as? String == mode.rawValue)
      #expect(object["summaryLabel"] as? String == explanation.summaryLabel)
      let leaks = try #require(object["leaks"] as? [[String: Any]])
      #expect(leaks.compactMap { $0["name"] as? String } == explanation.leaks.map(\.name))
      let graphData = try JSONSerialization.data(withJSONObject: try #require(object["graph"]))
      let graph = try JSONDecoder().decode(ReferenceGraph.self, from: graphData)
      #expect(graph == explanation.graph)
      #expect(Set(graph.nodes.filter(\.isLeaked).map(\.title)) == Set(explanation.leaks.map(\.name)))
      #expect(graph.edges.contains(where: \.isCulprit) == hasCycle(explanation))
    }
  }

  // MARK: Text

  @Test(
    "The text of every leaky scenario is its paths, then the drawing within 80 columns",
    arguments: explainedInProcess)
  func text(id: String) throws {
    let explanation = try explanation(id)
    let text = try explanation.output(.text)
    let lines = text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
    #expect(Array(lines.prefix(explanation.lines.count)) == explanation.lines)
    let picture = lines.dropFirst(explanation.lines.count)
    #expect(picture.allSatisfy { $0.count <= 80 })
    for leak in explanation.leaks {
      #expect(picture.contains { $0.contains("│ \(leak.name) ") }, "\(leak.name) has a box")
    }
    #expect(
      picture.last { !$0.isEmpty }?.contains("┃ culprit: the reference to break") == hasCycle(explanation))
    #expect(picture.contains { $0.contains("━") } == hasCycle(explanation))
  }

  /// Each scenario's culprit: the edge its fixed form weakens (`-`: no cycle).
  nonisolated static let culprits: [(id: String, culprit: String)] = [
    ("closure-capture", "completion: closure in LoadFeedUseCase.execute()"),
    ("notification-observer", "captures closure in InboxScreen.observeInbox()"),
    ("strong-delegate", "delegate"),
    ("alert-action-capture", "captures[1]"),
    ("delayed-dispatch", "work: closure in SyncScreen.syncLater()"),
    ("viper-module", "output"),
    ("repeating-timer", "work: closure in StopwatchScreen.start()"),
    ("nested-closure", "action: closure in PhotoScreen.loadPhoto()"),
    ("lazy-closure-property", "describe (lazy var): closure in CartScreen.describe.getter"),
    ("task-loop", "captures[2]"),
    ("foundation-timer", "_fire: closure in ScoreboardScreen.startRefreshing()"),
    ("dispatch-source-timer", "-"),
    ("combine-sink", "receiveValue: closure in SearchScreen.bind()"),
    ("child-coordinator", "parentCoordinator"),
    ("handler-context", "context"),
    ("abandoned-memory", "-"),
  ]

  @Test("The culprit is the catalogue's fix: the edge the fixed form weakens", arguments: culprits.map(\.id))
  func culpritIsTheFix(id: String) throws {
    let expected = try #require(Self.culprits.first { $0.id == id }?.culprit)
    let graph = try explanation(id).graph
    #expect(graph.edges.first(where: \.isCulprit).map(\.fullLabel) ?? "-" == expected)
  }

  @Test func everyScenarioHasItsCulprit() {
    #expect(Self.culprits.map(\.id) == Self.ids)
  }
}

/// The real `leaklab` binary, as a user runs it.
@Suite struct ExplainCommandFormatTests {
  @Test("leaklab explain --format dot prints DOT that Graphviz renders; mermaid and json print theirs")
  func binaryFormats() throws {
    let dot = try LeakLabBinary.run(["explain", "alert-action-capture", "--format", "dot"])
    #expect(dot.status == 0)
    #expect(dot.error.isEmpty)
    let svg = try Graphviz.svg(from: dot.output)
    #expect(svg.contains("AlertController#1") && svg.contains("DraftsScreen#1"))
    let mermaid = try LeakLabBinary.run(["explain", "alert-action-capture", "--format", "mermaid"])
    #expect(mermaid.output.hasPrefix("flowchart TD\n"))
    #expect(mermaid.output.contains(#"closure_1 ==>|"captures[1] (strong)"| AlertController_1"#))
    let json = try LeakLabBinary.run(["explain", "alert-action-capture", "--format", "json"])
    let object = try JSONSerialization.jsonObject(with: Data(json.output.utf8)) as? [String: Any]
    #expect(object?["summaryLabel"] as? String == "Leaked: AlertController#1, DraftsScreen#1")
  }

  @Test("leaklab explain --format text draws the loop after the paths, fitted to --width")
  func binaryText() throws {
    let text = try LeakLabBinary.run(["explain", "alert-action-capture", "--width", "60"])
    #expect(text.status == 0)
    #expect(text.output.contains("│ AlertController#1 │◀━"))
    #expect(text.output.contains("╭─▼"))
    let lines = text.output.split(separator: "\n").drop { !$0.hasPrefix("┌") }
    #expect(!lines.isEmpty)
    #expect(lines.allSatisfy { $0.count <= 60 })
  }

  @Test("An unknown format is a one-line usage error with status 2")
  func unknownFormat() throws {
    let run = try LeakLabBinary.run(["explain", "alert-action-capture", "--format", "png"])
    #expect(run.status == 2)
    #expect(run.error.hasPrefix("leaklab: The value 'png' is invalid for '--format <format>'"))
    #expect(run.error.split(separator: "\n").count == 1)
  }

  /// Issue 26, defect 8: `--width -3` said "Missing value".
  @Test(
    "A negative or too small width or height is a one-line error that names it",
    arguments: [
      (["--width", "-3"], "--width must be at least 20 columns, not -3"),
      (["--view", "--height", "-1"], "--height must be at least 10 rows, not -1"),
      (["--width", "5"], "--width must be at least 20 columns, not 5"),
    ])
  func badSize(arguments: [String], message: String) throws {
    let run = try LeakLabBinary.run(["explain", "alert-action-capture"] + arguments)
    #expect(run.status == 2)
    #expect(run.error == "leaklab: \(message) (see leaklab --help)\n")
  }
}
