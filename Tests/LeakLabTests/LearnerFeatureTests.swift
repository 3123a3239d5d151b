import Foundation
import GraphLayout
import LeakClock
import LeakLabTestSupport
import Scenarios
import StepScripts
import Testing
import TextGrid

@testable import LeakLab

/// What a learner needs (issue 26): why a leaky run came back clean, leaks
/// piling up across runs, work going on after the close, plain words first.
@MainActor
@Suite struct LearnerFeatureTests {
  let app = TestApp(catalogue: Catalogue.all)

  func screen(_ size: Size = Size(width: 120, height: 40)) -> String {
    render(app.state, size: size).lines.joined(separator: "\n")
  }

  func run(_ id: String, _ mode: ScenarioMode = .strong, taps: [Int] = [1]) {
    app.send(.scenarioSelected(id: id), .modeSet(mode), .openKeyPressed)
    for tap in taps { app.send(.actionKeyPressed(tap)) }
    app.send(.closeKeyPressed)
    app.advance(.seconds(1))
  }

  // MARK: The marked line never ran

  @Test func aLeakyRunClosedBeforeItsMarkedLineRanSaysWhichButtonToTap() {
    run("closure-capture", taps: [])
    #expect(app.label == "No issues detected")
    #expect(
      app.state.markedLineHint == "tap 1 Load feed before closing to run the leaky line")
    let text = screen().split(separator: "\n").joined(separator: " ")
    #expect(text.contains("Clean because the leaky line never ran: tap 1 Load feed before"))
    run("closure-capture")
    #expect(app.state.markedLineHint == nil)
  }

  @Test func noHintWhereOpeningRunsTheMarkedLine() {
    run("strong-delegate", taps: [])
    #expect(app.label == "Leaked: CheckoutScreen#1")
    #expect(app.state.markedLineHint == nil)
  }

  // MARK: Accumulation

  @Test func leaksPileUpAcrossRunsAndTheOverlaySaysHowMany() {
    for _ in 0..<3 { run("lazy-closure-property") }
    #expect(app.state.liveCounts["CartScreen"] == 3)
    #expect(screen().contains("Across runs: CartScreen alive: 3"))
    run("lazy-closure-property", .weak)
    #expect(app.state.liveCounts["CartScreen"] == 3, "a fixed run adds none")
  }

  @Test func abandonedScreensPileUpInTheGlobalListAndTheOverlayCountsThem() {
    for _ in 0..<4 { run("abandoned-memory") }
    #expect(app.state.liveCounts["ArticleScreen"] == 4)
    #expect(screen().contains("Across runs: ArticleScreen alive: 4"))
    run("abandoned-memory", .weak)
    #expect(app.state.liveCounts["ArticleScreen"] == 4, "the fixed form unregisters its screen")
  }

  // MARK: Work after the close

  @Test func aLeakedTimerTicksInTheLogAfterItsScreenClosed() {
    run("repeating-timer")
    app.advance(.seconds(1))
    let running = app.state.log.filter { $0.kind == .running }.map(\.text)
    #expect(
      running == [
        "StopwatchScreen#1, closed 1.0 s ago, ticked",
        "StopwatchScreen#1, closed 2.0 s ago, ticked (2nd time)",
      ])
    // Another run: the first one's timer still ticks, and its lines say which run.
    run("closure-capture")
    app.advance(.seconds(1))
    #expect(app.state.log.last { $0.kind == .running }?.text.hasPrefix("run 1: StopwatchScreen") == true)
  }

  @Test func aCompletionThatWouldCrashIsLoggedAndItsChildProcessReports() {
    let scheduler = ManualScheduler()
    let model = AppModel(
      catalogue: Catalogue.all, scheduler: scheduler, trapRunner: { id in "child crashed running \(id)" },
      runInBackground: { $0() })
    model.send(.scenarioSelected(id: "unowned-capture"))
    model.send(.openKeyPressed)
    model.send(.actionKeyPressed(1))
    model.send(.closeKeyPressed)
    scheduler.advance(by: .seconds(2))
    model.tick()
    scheduler.advance(by: .zero)
    model.tick()
    let traps = model.state.log.filter { $0.kind == .trap }.map(\.text)
    #expect(
      traps == [
        "AlbumScreen#1, closed 2.0 s ago, the cover arrived: the completion reads `unowned self`, freed, "
          + "and would crash the app here",
        "child crashed running unowned-capture",
      ])
  }

  // MARK: Plain words

  @Test func stepsThroughUntypedMemoryAreFoldedUntilDShowsThem() {
    let path =
      "held from root: global _dispatch_timers_heap + 8 in libdispatch.so → (conservative) dispatch timer "
      + "source state (malloc block, 120 B) → (conservative) word 5: malloc block, 72 B → (conservative) "
      + "word 5: Block (malloc block, 56 B) → (conservative) word 5: UploadProgressScreen#1 (strong)"
    #expect(
      MemoryDetailFolding.fold(path)
        == "held from root: global _dispatch_timers_heap + 8 in libdispatch.so → 3 untyped blocks (d shows them)"
        + " → (conservative) word 5: UploadProgressScreen#1 (strong)")
    // A Swift task is typed memory: its step is named, never folded away.
    run("task-loop")
    #expect(screen().contains("task: Task"))
    #expect(!screen().contains("untyped block"))
    app.send(.detailsKeyPressed)
    #expect(app.state.showsMemoryDetails)
    // In the explain view too, and `d` leaves the view open.
    app.send(.explainKeyPressed, .detailsKeyPressed)
    #expect(app.state.explainedLeakIndex == 0 && !app.state.showsMemoryDetails)
    #expect(!screen().contains("untyped block"))
  }

  @Test func theGraphFoldsAChainOfUntypedBlocksIntoOneReference() {
    let graph = ReferenceGraphFixture.chain
    let folded = MemoryDetailFolding.fold(graph)
    #expect(folded.nodes.map(\.title) == ["Screen#1", "root"])
    #expect(folded.edges.map(\.label) == ["2 untyped blocks (d shows them)"])
    #expect(folded.edges.first?.strength == .conservative)
  }

  @Test func theNotesSayWhatARealAppHasInsteadOfTheInjectedRoot() throws {
    let entry = try #require(app.state.catalogue.first { $0.id == "notification-observer" })
    let notes = ScenarioNotesView.lines(entry, width: 200).map(\.0).joined(separator: " ")
    #expect(notes.contains("In a real app it is `NotificationCenter.default`, a global"))
  }

  // MARK: Why it is freed, and what no detector sees

  @Test func theFixedFormsExplainViewDrawsTheLeakyGraphWithTheBrokenReferenceDashed() {
    run("strong-delegate", .weak)
    app.send(.explainKeyPressed)
    let text = screen(Size(width: 80, height: 24))
    expectSnapshot(
      of: render(app.state, size: Size(width: 80, height: 24)), named: "why-freed-strong-delegate-80x24")
    #expect(text.contains("Why is it freed? Strong delegate, fixed form (weak)"))
    #expect(text.contains("╎ delegate (weak)"))
    #expect(!text.contains("Nothing has leaked"))
  }

  @Test func aBlindSpotsExplainViewSaysWhatNoDetectorSees() {
    run("task-zombie")
    app.send(.explainKeyPressed)
    expectSnapshot(
      of: render(app.state, size: Size(width: 80, height: 24)), named: "blind-spot-task-zombie-80x24")
    let text = screen().split(separator: "\n").joined(separator: " ")
    #expect(text.contains("Nothing leaks in Task that outlives its screen, and that is the trap."))
    #expect(text.contains("No leak detector can see it: the task keeps polling after the close"))
  }

  // MARK: Strong and weak side by side

  @Test func sShowsTheChangedLinesSideBySideAndEscClosesIt() {
    app.send(.scenarioSelected(id: "delayed-dispatch"), .comparisonKeyPressed)
    #expect(app.state.keyContext == .comparison)
    let frame = render(app.state, size: Size(width: 80, height: 24))
    expectSnapshot(of: frame, named: "side-by-side-delayed-dispatch-80x24")
    let text = frame.lines.joined(separator: "\n")
    #expect(text.contains("strong (leaky, runs now)"))
    #expect(text.contains("weak (fixed, w switches to it)"))
    #expect(frame.lines.contains { $0.contains("● ") && $0.contains("│ ● ") }, "a changed line on both sides")
    app.send(.captureToggled)
    #expect(app.state.isComparisonVisible && app.state.selectedEntry?.mode == .weak)
    #expect(screen().contains("weak (fixed, runs now)"))
    app.send(.closeKeyPressed)
    #expect(!app.state.isComparisonVisible)
  }

  @Test func sharedLinesFarFromAChangeFoldIntoOneRow() {
    let hunks = ComparisonView.hunks(Catalogue.closureCapture.code.lines)
    let shown = ComparisonView.withContext(hunks)
    #expect(shown.first?.hiddenLines == 10)
    #expect(shown.filter(\.isChange).count == 1)
  }
}

/// A small graph: a root holding a screen through two untyped blocks.
enum ReferenceGraphFixture {
  static let chain = ReferenceGraph(
    nodes: [
      .init(id: "screen", title: "Screen#1", isLeaked: true),
      .init(id: "a", title: "malloc block, 72 B", kind: .other),
      .init(id: "b", title: "heap object", kind: .other), .init(id: "root", title: "root", isRoot: true),
    ],
    edges: [
      .init(from: "root", to: "a", label: "word 1", strength: .conservative),
      .init(from: "a", to: "b", label: "word 2", strength: .conservative),
      .init(from: "b", to: "screen", label: "word 3", strength: .conservative),
    ])
}
