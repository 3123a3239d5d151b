import LeakClock
import ScreenKit
import Testing

import func LeakLabTestSupport.waitForDeallocation

@testable import Scenarios

/// `nested-closure` in the three published styles.
@MainActor
@Suite struct NestedClosureTests {
  @Test(arguments: ScenarioMode.allCases)
  func moduleTeardownFindsTheScreenAlive(mode: ScenarioMode) {
    let scheduler = ManualScheduler()
    let parts = WeakParts()
    do {
      let screen = PhotoScreen(mode: mode, loader: ImageLoader(mainQueue: MainQueue(scheduler: scheduler)))
      parts.keep("PhotoScreen", screen)
      #expect(tap("Load photo", in: screen))
      scheduler.runDueWork()
      #expect(screen.photoLabel.text == "sunset.jpg (2 MB)")
      screen.retryButton.tap()
      scheduler.runDueWork()
      #expect(screen.loads == 2)
    }
    #expect(parts.alive == (mode == .strong ? ["PhotoScreen"] : []))
  }

  @Test(arguments: ScenarioMode.allCases)
  func theOuterWeakSelfAloneDoesNotLeakUntilTheInnerClosureIsStored(mode: ScenarioMode) {
    let scheduler = ManualScheduler()
    weak var screen: PhotoScreen?
    do {
      let photo = PhotoScreen(mode: mode, loader: ImageLoader(mainQueue: MainQueue(scheduler: scheduler)))
      screen = photo
      tap("Load photo", in: photo)
    }
    #expect(screen == nil, "closed before the load completed: nothing stored, nothing leaked")
    scheduler.runDueWork()
  }

  @Test(arguments: ScenarioMode.allCases)
  func assertDeallocationTimesOutOnTheScreen(mode: ScenarioMode) async {
    let rig = Rig()
    weak let screen = await rig.openRunAndClose(Catalogue.nestedClosure, mode: mode)
    let failure = waitForDeallocation(of: "PhotoScreen", on: rig.scheduler, timeout: .seconds(2)) {
      screen == nil
    }
    switch mode {
    case .strong:
      #expect(failure == "PhotoScreen was not deallocated within 2.0 s")
      #expect(rig.label == "Leaked: PhotoScreen#1")
      (screen as? PhotoScreen)?.retryButton.action = nil
      #expect(screen == nil)
    case .weak:
      #expect(failure == nil)
      #expect(rig.label == "No issues detected")
    }
  }

  final class Fixture {
    weak var screen: PhotoScreen?
    weak var retryButton: Button?
  }

  @Test(arguments: ScenarioMode.allCases)
  func fixtureCheckNamesTheScreenAndTheButtonHoldingTheClosure(mode: ScenarioMode) {
    let rig = Rig()
    let fixture = Fixture()
    do {
      let screen = rig.harness.open(Catalogue.nestedClosure, mode: mode) as! PhotoScreen
      fixture.screen = screen
      fixture.retryButton = screen.retryButton
      rig.harness.runAction(at: 0)
      rig.scheduler.runDueWork()
    }
    rig.harness.close()
    #expect(nonNilProperties(of: fixture) == (mode == .strong ? ["screen", "retryButton"] : []))
    fixture.retryButton?.action = nil
  }
}
