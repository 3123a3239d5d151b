import Foundation
import LeakClock
import LeakLabTestSupport
import Scenarios
import Testing
import TextGrid

@testable import LeakLab

/// The guided first run: seven steps, shown above the status bar until done,
/// remembered once finished or hidden (issue 26, "What a learner needs").
@MainActor
@Suite struct TourTests {
  /// Where the tour is remembered (in a folder the app creates): removed when the test ends.
  let folder = TemporaryFolder("leaklab-tour")
  var memory: URL { folder.file("state/tour-done") }
  let scheduler = ManualScheduler()

  func app() -> AppModel {
    let model = AppModel(catalogue: Catalogue.all, scheduler: scheduler, tourMemory: memory)
    model.resize(to: Size(width: 80, height: 24))
    return model
  }

  func send(_ model: AppModel, _ actions: AppAction...) {
    for action in actions { model.send(action) }
  }

  /// The tour's rows above the status bar at 80 columns, joined.
  func tourLine(_ model: AppModel) -> String {
    let lines = render(model.state, size: Size(width: 80, height: 24)).lines.dropLast()
    let rows = TourView.height(model.state, width: 80)
    return " " + lines.suffix(rows).map { $0.trimmingCharacters(in: .whitespaces) }.joined(separator: " ")
  }

  @Test func aNewcomerIsWalkedThroughALeakAndItsFixAndTheTourIsRemembered() {
    let model = app()
    #expect(model.state.tour == .open)
    #expect(tourLine(model).hasPrefix(" Tour 1/7 · Enter opens the selected scenario, leaky (strong)."))
    #expect(tourLine(model).hasSuffix("t hides"))
    model.send(.openKeyPressed)
    #expect(model.state.tour == .tap)
    #expect(tourLine(model).contains("Tap 1 (Load feed): it runs the marked, leaky line."))
    model.send(.actionKeyPressed(1))
    #expect(model.state.tour == .close)
    model.send(.closeKeyPressed)
    #expect(model.state.tour == .watch)
    scheduler.advance(by: .seconds(1))
    model.tick()
    #expect(model.state.tour == .explain)
    model.send(.explainKeyPressed)
    #expect(model.state.tour == .switchForm)
    send(model, .closeKeyPressed, .captureToggled)
    #expect(model.state.tour == .again)
    send(model, .openKeyPressed, .actionKeyPressed(1), .closeKeyPressed)
    #expect(model.state.tour == .again, "done only once the fixed form is checked")
    scheduler.advance(by: .seconds(1))
    model.tick()
    #expect(model.state.tour == nil)
    #expect(model.state.notice == "Tour done: you ran a leak and its fix. t shows the tour again")
    #expect(FileManager.default.fileExists(atPath: memory.path))
    // The next launch does not start it; `t` does.
    let next = app()
    #expect(next.state.tour == nil)
    next.send(.tourKeyPressed)
    #expect(next.state.tour == .open)
  }

  @Test func closingBeforeTheMarkedLineRanGoesBackWithTheHint() {
    let model = app()
    send(model, .openKeyPressed, .closeKeyPressed)
    scheduler.advance(by: .seconds(1))
    model.tick()
    #expect(model.state.report.leaks.isEmpty)
    #expect(model.state.tour == .open)
    #expect(
      tourLine(model).contains(
        "Clean: the leaky line never ran. Enter, then tap 1 Load feed before closing to run the leaky line."))
  }

  @Test func tHidesTheTourAndRemembersIt() {
    let model = app()
    model.send(.tourKeyPressed)
    #expect(model.state.tour == nil)
    #expect(model.state.notice == "Tour hidden: t shows it again")
    #expect(FileManager.default.fileExists(atPath: memory.path))
    #expect(app().state.tour == nil)
  }

  @Test func withoutAMemoryFileThereIsNoTour() {
    #expect(AppModel(catalogue: Catalogue.all, scheduler: scheduler).state.tour == nil)
  }

  @Test func theTourLineShrinksThePanesAndLeavesTheStatusBarLast() {
    let model = app()
    let lines = render(model.state, size: Size(width: 80, height: 24)).lines
    #expect(lines[22].hasPrefix(" Tour 1/7"))
    #expect(lines[23].hasPrefix(" Scenarios "))
    #expect(AppLayout(size: Size(width: 80, height: 24), state: model.state).body.height == 22)
  }
}
