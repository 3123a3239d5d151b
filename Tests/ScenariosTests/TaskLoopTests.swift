import LeakClock
import ScreenKit
import Testing

import func LeakLabTestSupport.waitForDeallocation

@testable import Scenarios

/// `task-loop` in the three published styles, and what cancellation does.
///
/// A task runs on the main actor, not on the manual clock. Its closure holds
/// `self` from the moment the task is created, so the leak needs no loop turn
/// to exist. Only showing a published price needs the task to run: the tests
/// let it, by yielding the main actor until the price shows (no sleeps).
@MainActor
@Suite struct TaskLoopTests {
  @Test(arguments: ScenarioMode.allCases)
  func aPublishedPriceIsShownOnceTheTaskHadItsTurn(mode: ScenarioMode) async {
    let scheduler = ManualScheduler()
    let screen = TickerScreen(mode: mode, ticker: PriceTicker())
    #expect(tap("Publish price", in: screen))
    await ScenarioRunner.settle(scheduler, until: { screen.priceLabel.text == "ACME 107" })
    #expect(screen.priceLabel.text == "ACME 107")
    screen.task?.cancel()
  }

  @Test(arguments: ScenarioMode.allCases)
  func moduleTeardownFindsTheScreenAliveWithoutTheLoopEverRunning(mode: ScenarioMode) {
    let parts = WeakParts()
    do {
      let screen = TickerScreen(mode: mode, ticker: PriceTicker())
      _ = screen.view  // starts the task
      parts.keep("TickerScreen", screen)
      parts.keep("PriceTicker", screen.ticker)
    }
    #expect(parts.alive == (mode == .strong ? ["TickerScreen", "PriceTicker"] : []))
  }

  @Test func cancellingTheStrongTaskReleasesTheScreenOnlyOnceTheTaskHasFinished() async {
    let scheduler = ManualScheduler()
    weak var screen: TickerScreen?
    var task: Task<Void, Never>?
    do {
      let ticker = TickerScreen(mode: .strong, ticker: PriceTicker())
      _ = ticker.view
      screen = ticker
      task = ticker.task
    }
    task?.cancel()
    #expect(screen != nil, "cancel() only asks; the closure is released when the loop returns")
    await task?.value
    #expect(screen == nil)
    await ScenarioRunner.settle(scheduler)
  }

  @Test(arguments: ScenarioMode.allCases)
  func assertDeallocationTimesOutOnTheScreen(mode: ScenarioMode) async {
    let rig = Rig()
    weak let screen = await rig.openRunAndClose(Catalogue.taskLoop, mode: mode)
    let failure = waitForDeallocation(of: "TickerScreen", on: rig.scheduler, timeout: .seconds(2)) {
      screen == nil
    }
    switch mode {
    case .strong:
      #expect(failure == "TickerScreen was not deallocated within 2.0 s")
      #expect(rig.label == "Leaked: TickerScreen#1")
      (screen as? TickerScreen)?.task?.cancel()
    case .weak:
      #expect(failure == nil)
      #expect(rig.label == "No issues detected")
    }
  }

  final class Fixture {
    weak var screen: TickerScreen?
    weak var ticker: PriceTicker?
  }

  @Test(arguments: ScenarioMode.allCases)
  func fixtureCheckNamesTheScreenAndItsTicker(mode: ScenarioMode) async {
    let rig = Rig()
    let fixture = Fixture()
    do {
      let screen = rig.harness.open(Catalogue.taskLoop, mode: mode) as! TickerScreen
      fixture.screen = screen
      fixture.ticker = screen.ticker
      rig.harness.runAction(at: 0)
      await ScenarioRunner.settle(rig.scheduler, until: { screen.priceLabel.text == "ACME 107" })
      #expect(screen.priceLabel.text == "ACME 107")
    }
    rig.harness.close()
    await ScenarioRunner.settle(rig.scheduler)
    #expect(nonNilProperties(of: fixture) == (mode == .strong ? ["screen", "ticker"] : []))
    fixture.screen?.task?.cancel()
  }
}
