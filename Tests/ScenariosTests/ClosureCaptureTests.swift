import LeakClock
import ScreenKit
import Testing

import func LeakLabTestSupport.waitForDeallocation

@testable import Scenarios

/// `closure-capture` in the three published styles: the screen goes away, the
/// use case and its service stay.
@MainActor
@Suite struct ClosureCaptureTests {
  static let leakedParts = ["LoadFeedUseCase", "FeedService"]

  @Test(arguments: ScenarioMode.allCases)
  func moduleTeardownFindsTheUseCaseAndServiceAlive(mode: ScenarioMode) {
    let parts = WeakParts()
    do {
      let service = FeedService()
      let useCase = LoadFeedUseCase(service: service, mode: mode)
      let screen = FeedScreen(useCase: useCase)
      parts.keep("FeedScreen", screen)
      parts.keep("LoadFeedUseCase", useCase)
      parts.keep("FeedService", service)
      #expect(tap("Load feed", in: screen))
      #expect(labelText("feed", in: screen) == "Feed: Ada joined, Grace posted")
    }
    #expect(parts.alive == (mode == .strong ? Self.leakedParts : []))
  }

  @Test(arguments: ScenarioMode.allCases)
  func assertDeallocationTimesOutOnTheUseCase(mode: ScenarioMode) {
    let rig = Rig()
    weak var useCase: LoadFeedUseCase?
    do {
      let screen = rig.harness.open(Catalogue.closureCapture, mode: mode) as! FeedScreen
      useCase = screen.useCase
      #expect(rig.harness.runAction(at: 0))
    }
    rig.harness.close()
    let failure = waitForDeallocation(of: "LoadFeedUseCase", on: rig.scheduler, timeout: .seconds(2)) {
      useCase == nil
    }
    switch mode {
    case .strong:
      #expect(failure == "LoadFeedUseCase was not deallocated within 2.0 s")
      #expect(rig.label == "Leaked: LoadFeedUseCase#1, FeedService#1")
    case .weak:
      #expect(failure == nil)
      #expect(rig.label == "No issues detected")
    }
  }

  final class Fixture {
    weak var screen: FeedScreen?
    weak var useCase: LoadFeedUseCase?
    weak var service: FeedService?
  }

  @Test(arguments: ScenarioMode.allCases)
  func fixtureCheckNamesTheUseCaseAndService(mode: ScenarioMode) {
    let rig = Rig()
    let fixture = Fixture()
    do {
      let screen = rig.harness.open(Catalogue.closureCapture, mode: mode) as! FeedScreen
      fixture.screen = screen
      fixture.useCase = screen.useCase
      fixture.service = screen.useCase.service
      #expect(nonNilProperties(of: fixture) == ["screen", "useCase", "service"])
      rig.harness.runAction(at: 0)
    }
    rig.harness.close()
    #expect(nonNilProperties(of: fixture) == (mode == .strong ? ["useCase", "service"] : []))
  }
}
