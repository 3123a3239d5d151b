import Foundation
import GraphLayout
import LeakLab
import LeakLabTestSupport
import Scenarios
import Testing

/// For every scenario in its leaky form, the retain path names the real
/// culprit edge; in its fixed form nothing is left to explain.
@MainActor
@Suite struct ScenarioExplanationTests {
  /// Each scenario's leaked instance and a piece of its path that only the culprit edge produces.
  nonisolated static let culprits: [(id: String, leak: String, edge: String)] = [
    (
      "closure-capture", "LoadFeedUseCase#1",
      "service: FeedService#1 → completion: closure in LoadFeedUseCase.execute()"
    ),
    (
      "notification-observer", "InboxScreen#1",
      "captures closure in InboxScreen.observeInbox() → captures InboxScreen#1"
    ),
    (
      "strong-delegate", "CheckoutScreen#1",
      "subviews[1]: StrongDelegatePaymentForm#1 → delegate: CheckoutScreen#1 (strong)"
    ),
    (
      "alert-action-capture", "AlertController#1",
      "actions[1]: AlertAction#1 → handler: closure in DraftsScreen.confirmDelete()"
    ),
    (
      "delayed-dispatch", "SyncScreen#1",
      "ScheduledWork#1 → work: closure in SyncScreen.syncLater() → captures SyncScreen#1"
    ),
    (
      "viper-module", "ProfilePresenter#1",
      "interactor: StrongOutputProfileInteractor#1 → output: ProfilePresenter#1"
    ),
    (
      "repeating-timer", "StopwatchScreen#1",
      "timer: RepeatingWork#1 → work: closure in StopwatchScreen.start()"
    ),
    ("nested-closure", "PhotoScreen#1", "retryButton: Button#1 → action: closure in PhotoScreen.loadPhoto()"),
    (
      "lazy-closure-property", "CartScreen#1", "closure in CartScreen.describe.getter → captures CartScreen#1"
    ),
    ("task-loop", "TickerScreen#1", "task: Task"),
    (
      "foundation-timer", "ScoreboardScreen#1",
      "timer: Timer#1 → _fire: closure in ScoreboardScreen.startRefreshing() → captures ScoreboardScreen#1"
    ),
  ]

  @Test(arguments: culprits.map(\.id))
  func theLeakyFormsPathNamesTheCulpritEdge(id: String) throws {
    let culprit = try #require(Self.culprits.first { $0.id == id })
    let scenario = try #require(Catalogue.scenario(id: id))
    let explanation = ScenarioExplanation(scenario, mode: .strong)
    let leak = try #require(explanation.leaks.first { $0.name == culprit.leak })
    let path = try #require(leak.retainPath)
    #expect(path.contains(culprit.edge), "\(path)")
    #expect(path.hasPrefix("retain cycle: \(culprit.leak)"), "\(path)")
  }

  @Test func aLeakHeldByAnotherLeakIsExplainedFromIt() throws {
    let explanation = ScenarioExplanation(Catalogue.alertActionCapture, mode: .strong)
    let screen = try #require(explanation.leaks.first { $0.name == "DraftsScreen#1" })
    #expect(
      screen.retainPath
        == "kept by the leaked cycle of AlertController#1 → actions[1]: AlertAction#1 → handler: closure in DraftsScreen.confirmDelete() → captures[0] DraftsScreen#1 (strong)"
    )
  }

  @Test(arguments: Catalogue.all.map(\.id))
  func theFixedFormLeavesNothingToExplain(id: String) throws {
    let explanation = ScenarioExplanation(try #require(Catalogue.scenario(id: id)), mode: .weak)
    #expect(explanation.leaks.isEmpty)
    #expect(explanation.lines.last == "  nothing outlived the screen: no cycle, no root path")
  }
}

/// `leaklab explain` as a user runs it, in a process of its own (it searches
/// memory for root paths, which in-process tests leave off): the leaky form's
/// path starts at Foundation's or libdispatch's own global, with no root
/// registered for it, and ends at the block that captures the screen.
@Suite(.memoryViewSupported) struct LibraryRootExplainCommandTests {
  static let paths: [(id: String, root: String, end: String)] = [
    (
      "foundation-timer", "; also held from root: global __CFRunLoops in libFoundation.so → (conservative) ",
      "→ (conservative) word 18: Timer#1 → _fire: closure in ScoreboardScreen.startRefreshing()"
        + " → captures ScoreboardScreen#1 (strong)"
    ),
    (
      "dispatch-source-timer",
      "held from root: global _dispatch_timers_heap + 8 in libdispatch.so → (conservative) ",
      "→ (conservative) word 5: Block (malloc block, 56 B) → (conservative) word 5: UploadProgressScreen#1 (strong)"
    ),
    (
      "abandoned-memory", "held from root: global static OpenScreens.screens in leaklab → (conservative) ",
      "→ (conservative) Array storage → [0]: ArticleScreen#1 (strong)"
    ),
  ]

  /// `leaklab explain` runs the scenario in a process of its own: the path
  /// is the library's own, from its global, every run.
  @Test(arguments: paths.map(\.id))
  func theLeakyFormIsExplainedFromTheLibrarysGlobal(id: String) throws {
    let expected = try #require(Self.paths.first { $0.id == id })
    let run = try LeakLabBinary.run(["explain", id, "--mode", "strong"])
    #expect(run.status == 0 && run.error.isEmpty, "\(run.error)")
    let line = try #require(run.output.split(separator: "\n").dropFirst(2).first, "\(run.output)")
    // The path, without the account of the screen's strong references (in a
    // running app a stale word in C memory can take the room the caller's
    // own references leave: docs/memory-view.md).
    let path = try #require(line.split(separator: "; ").dropLast().joined(separator: "; ") as String?)
    #expect(line.contains(" strong reference"), "\(line)")
    #expect(path.hasSuffix(expected.end), "\(path)")
    #expect(path.contains(expected.root), "\(path)")
  }

  @Test(arguments: paths.map(\.id))
  func theFixedFormHasNothingToExplain(id: String) throws {
    let run = try LeakLabBinary.run(["explain", id, "--mode", "weak"])
    #expect(run.status == 0)
    #expect(
      run.output
        == "\(id) (weak): No issues detected\n  nothing outlived the screen: no cycle, no root path\n")
  }

  /// `dispatch-source-timer` has no cycle: only the path from libdispatch's
  /// global explains it, and every export draws that path (in-process
  /// exports, without the memory search, cannot: `ExplainFormatTests`).
  @Test func theExportsOfADispatchSourceLeakDrawThePathFromLibdispatchsGlobal() throws {
    let id = "dispatch-source-timer"
    let leak = "UploadProgressScreen"
    let node = ReferenceGraph.identifier(for: "\(leak)#1")
    let dot = try LeakLabBinary.run(["explain", id, "--format", "dot"])
    #expect(dot.status == 0 && dot.output.hasPrefix("digraph \"\(id)\" {"))
    #expect(dot.output.contains("\"\(node)\" [label=\"\(leak)#1\\nleaked\""))
    #expect(dot.output.contains(#"\nroot", peripheries=2]"#), "the library's global is drawn as a root")
    #expect(dot.output.contains("style=dashed"), "conservative steps are dashed")
    let svg = try Graphviz.svg(from: dot.output)
    #expect(svg.contains("\(leak)#1") && svg.contains("libdispatch.so"))
    let mermaid = try LeakLabBinary.run(["explain", id, "--format", "mermaid"])
    #expect(mermaid.output.hasPrefix("flowchart TD\n"))
    #expect(mermaid.output.contains("  \(node)[\""))
    #expect(mermaid.output.contains("-.->|"), "conservative steps are dotted")
    let json = try LeakLabBinary.run(["explain", id, "--format", "json"])
    let object = try #require(
      try JSONSerialization.jsonObject(with: Data(json.output.utf8)) as? [String: Any])
    let graph = try JSONDecoder().decode(
      ReferenceGraph.self, from: JSONSerialization.data(withJSONObject: try #require(object["graph"])))
    #expect(graph.nodes.filter(\.isLeaked).map(\.title) == ["\(leak)#1"])
    #expect(graph.edges.contains { $0.strength == .conservative })
  }
}
