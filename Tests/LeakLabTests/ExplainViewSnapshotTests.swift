import Foundation
import LeakClock
import LeakLabTestSupport
import Scenarios
import Testing
import TextGrid

@testable import LeakLab

/// The explain view of every leaky scenario: its retain graph drawn, the
/// catalogue's fix beside it (or above it when narrow), at the minimum size
/// and a large one. Re-record with `LEAKLAB_RECORD_SNAPSHOTS=1`.
@MainActor
@Suite struct ExplainViewSnapshotTests {
  /// The scenarios whose leaky form leaks (the others' mistake is one no detector sees).
  nonisolated static let ids = Catalogue.all.filter { $0.detectorBlindSpot == nil }.map(\.id)
  nonisolated static let sizes = [Size(width: 80, height: 24), Size(width: 120, height: 40)]
  /// Scenarios whose root path runs through memory this test process shares
  /// with other tests (libdispatch's timer heap holds every armed timer
  /// source, and other tests leave theirs armed; `OpenScreens.screens` keeps
  /// every leaky run's article): drawn by `leaklab explain --view` in a
  /// process of its own, the same every time, from the global named here.
  nonisolated static let drawnInTheirOwnProcess: [String: String] = [
    "dispatch-source-timer": "global _dispatch_timers_heap",
    "abandoned-memory": "global static OpenScreens.screens",
  ]

  /// The app after a strong run of `id`, with the explain view open on its first leak.
  static func explaining(_ id: String) throws -> HeadlessStepDriver {
    let driver = HeadlessStepDriver()
    ScenarioExplanation.drive(try #require(Catalogue.scenario(id: id)), mode: .strong, on: driver)
    driver.model.send(.explainKeyPressed)
    return driver
  }

  @Test(
    "Every scenario's explain view draws its leak's graph at 80×24 and 120×40",
    arguments: ids.filter { drawnInTheirOwnProcess[$0] == nil })
  func explainView(id: String) throws {
    let model = try Self.explaining(id).model
    for size in Self.sizes {
      let frame = model.frame(for: size)
      expectSnapshot(of: frame, named: "explain-\(id)-\(size.width)x\(size.height)")
      let name = try #require(model.state.report.leaks.first?.name)
      #expect(frame.description.contains("│ \(name) "), "\(name) is drawn in a box at \(size)")
      #expect(frame.description.contains("Fix: "))
    }
  }

  /// Its root path is a search of the process's memory, which needs glibc's
  /// malloc (not a sanitizer's).
  @Test(
    "A leak held from a library's global is drawn from that global, in a process of its own",
    .memoryViewSupported, arguments: drawnInTheirOwnProcess.keys.sorted())
  func explainViewOfItsOwnProcess(id: String) throws {
    let scenario = try #require(Catalogue.scenario(id: id))
    let type = try #require(scenario.expectedVerdict(for: .strong).leakedTypeNames.first)
    let name = "\(type)#1"
    for size in Self.sizes {
      let run = try LeakLabBinary.run([
        "explain", id, "--view", "--width", "\(size.width)", "--height", "\(size.height)",
      ])
      #expect(run.status == 0 && run.error.isEmpty, "\(run.error)")
      expectSnapshot(ofText: run.output, named: "explain-\(id)-\(size.width)x\(size.height)")
      #expect(run.output.contains("1 of 1: \(name)"))
      #expect(size.height < 40 || run.output.contains("│ \(name) "), "\(name) is drawn in a box at \(size)")
      #expect(run.output.contains("Fix: "))
      let root = try #require(Self.drawnInTheirOwnProcess[id])
      #expect(run.output.contains("║ \(root)"), "the global is the root")
    }
  }

  /// A leak's allocation site (`--stacks`) is never cut: a path wider than
  /// the view breaks after a `/`, and its `file:line` stays whole.
  @Test func anAllocationSiteWiderThanTheViewIsWrappedWhole() throws {
    var leak = try #require(Self.explaining("closure-capture").model.state.report.leaks.first)
    leak.allocationSite =
      "allocated in ProfileScreen.init() at /home/someone/Projects/AVeryLongProjectName/Sources/Features/"
      + "ProfileFeature/ProfileScreen.swift:42"
    let content = ExplainContent(leak: leak, number: 1, count: 1, now: .zero, graph: nil)
    let text = content.grid(width: 40, height: 24).description
    #expect(!text.contains("…"), "\(text)")
    #expect(text.contains("ProfileScreen.swift:42"), "\(text)")
  }

  /// The scenarios whose mistake no leak detector sees: clean in both forms.
  nonisolated static let blindSpots = Catalogue.all.filter { $0.detectorBlindSpot != nil }.map(\.id)

  @Test(
    "A blind spot's explain view says what no detector sees, and the fix, at 80×24", arguments: blindSpots)
  func blindSpotExplainView(id: String) throws {
    let scenario = try #require(Catalogue.scenario(id: id))
    let model = try Self.explaining(id).model
    #expect(model.state.report.leaks.isEmpty)
    let frame = model.frame(for: Size(width: 80, height: 24))
    expectSnapshot(of: frame, named: "blind-spot-\(id)-80x24")
    let text = frame.lines.map { $0.trimmingCharacters(in: CharacterSet(charactersIn: "│ ")) }
      .joined(separator: " ")
    #expect(text.contains("Nothing leaks in \(scenario.title), and that is the trap."), "\(text)")
    #expect(text.contains("No leak detector can see it"))
    #expect(text.contains("Fix: "))
  }

  @Test("At 200×50 the cycle is drawn in one row, the fix beside it")
  func roomyTerminal() throws {
    let frame = try Self.explaining("alert-action-capture").model.frame(for: Size(width: 200, height: 50))
    expectSnapshot(of: frame, named: "explain-alert-action-capture-200x50")
    let row = frame.lines.first { $0.contains("│ AlertController#1 ├") } ?? ""
    #expect(row.contains("│ AlertAction#1 ├") && row.contains("│ closure"))
    let boxTop = try #require(frame.lines.firstIndex { $0.contains("┌────────── leaked ─┐") })
    #expect(frame.lines[boxTop].contains("Fix: "))
  }

  @Test("The README's explain view: a leak held by another leak's cycle, at 100×30")
  func readmeExplainView() throws {
    let model = try Self.explaining("alert-action-capture").model
    model.send(.focusNextPressed)
    expectSnapshot(of: model.frame(for: Size(width: 100, height: 30)), named: "readme-explain-100x30")
  }

  @Test("The culprit edge is bold red in the explain view")
  func culpritStyle() throws {
    let frame = try Self.explaining("alert-action-capture").model.frame(for: Size(width: 120, height: 40))
    expectSnapshot(of: frame, named: "explain-alert-action-capture-120x40-styled", styled: true)
    var culprit = 0
    for y in 0..<frame.height {
      for x in 0..<frame.width where "┃━┛┓┝".contains(frame[x, y].character) {
        #expect(frame[x, y].style == Style(foreground: .red, attributes: .bold))
        culprit += 1
      }
    }
    #expect(culprit > 10)
  }
}

/// Scrolling the explain view when its drawing is taller than the screen.
@MainActor
@Suite struct ExplainViewScrollTests {
  @Test("PgDn scrolls a page and stops at the end; PgUp goes back; another leak starts at the top")
  func scrolling() throws {
    let model = try ExplainViewSnapshotTests.explaining("notification-observer").model
    let size = Size(width: 80, height: 24)
    let first = model.frame(for: size)
    let metrics = PaneMetrics.explain(in: model.state)
    let end = metrics.content.height - metrics.viewport.height
    let page = metrics.viewport.height - 1
    #expect(end > 0)
    #expect(first.lines[first.height - 2].contains("↓ \(end) more"))
    model.send(.scrollKeyPressed(.pageDown))
    #expect(model.state.explainScroll.y == min(page, end))
    let second = model.frame(for: size)
    expectSnapshot(of: second, named: "explain-notification-observer-80x24-scrolled")
    #expect(second.description.contains("┗━━"), "the loop's end is on the second page")
    for _ in 0..<5 { model.send(.scrollKeyPressed(.pageDown)) }
    #expect(model.state.explainScroll.y == end)
    #expect(!model.frame(for: size).description.contains(" more ─"))
    model.send(.scrollKeyPressed(.pageUp))
    #expect(model.state.explainScroll.y == max(0, end - page))
    for _ in 0..<3 { model.send(.scrollKeyPressed(.pageUp)) }
    #expect(model.state.explainScroll == .top)
  }

  @Test("Choosing another leak, or closing and reopening, starts at the top")
  func scrollResets() throws {
    let model = try ExplainViewSnapshotTests.explaining("alert-action-capture").model
    _ = model.frame(for: Size(width: 80, height: 24))
    model.send(.scrollKeyPressed(.pageDown))
    #expect(model.state.explainScroll.y > 0)
    model.send(.focusNextPressed)
    #expect(model.state.explainedLeakIndex == 1)
    #expect(model.state.explainScroll == .top)
    for action in [AppAction.scrollKeyPressed(.pageDown), .explainKeyPressed, .explainKeyPressed] {
      model.send(action)
    }
    #expect(model.state.explainScroll == .top)
  }

  @Test("Outside the explain view, PgDn acts on the focused pane: in the catalogue, a page down")
  func pageKeysOutside() {
    let model = AppModel(scheduler: ManualScheduler())
    _ = model.frame(for: Size(width: 80, height: 24))
    model.send(.scrollKeyPressed(.pageDown))
    #expect(model.state.selectedIndex > 0)
    #expect(model.state.explainedLeakIndex == nil)
  }

  @Test("A leak held by another leak is drawn hanging off that leak's cycle")
  func heldLeakShowsItsHolder() throws {
    let model = try ExplainViewSnapshotTests.explaining("alert-action-capture").model
    model.send(.focusNextPressed)
    let frame = model.frame(for: Size(width: 120, height: 40))
    expectSnapshot(of: frame, named: "explain-alert-action-capture-second-120x40")
    let text = frame.description
    #expect(text.contains("2 of 2: DraftsScreen#1"))
    #expect(text.contains("│ AlertController#1 │◀━"))
    #expect(text.contains("captures[0] (strong)"))
  }
}
