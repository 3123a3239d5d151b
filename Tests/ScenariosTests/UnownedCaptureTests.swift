import LeakClock
import ScreenKit
import Testing

@testable import Scenarios

/// `unowned-capture`: nothing leaks; a completion that arrives after the
/// close would read a freed `unowned self`. In this process it is reported,
/// never run (`leaklab trap` runs it in a process of its own).
@MainActor
@Suite struct UnownedCaptureTests {
  @Test(arguments: ScenarioMode.allCases)
  func whileTheScreenIsOpenTheCoverArrivesInBothForms(mode: ScenarioMode) {
    let rig = Rig()
    let screen = rig.harness.open(Catalogue.unownedCapture, mode: mode) as! AlbumScreen
    rig.harness.runAction(at: 0)
    rig.scheduler.advance(by: Catalogue.coverDownloadTime)
    #expect(screen.coverLabel.text == "Cover: cover.jpg (80 KB)")
    rig.harness.close()
  }

  @Test(arguments: ScenarioMode.allCases)
  func closedBeforeTheCoverArrivesTheScreenIsFreedAndTheCompletionIsReported(mode: ScenarioMode) {
    let rig = Rig()
    weak let screen = rig.harness.open(Catalogue.unownedCapture, mode: mode)
    rig.harness.runAction(at: 0)
    rig.harness.close()
    rig.scheduler.advance(by: .seconds(1))
    #expect(screen == nil, "unowned and weak both let the screen go")
    #expect(rig.label == "No issues detected")
    rig.scheduler.advance(by: .seconds(1))
    let entries = rig.harness.environment.activity.drain()
    switch mode {
    case .strong:
      #expect(
        entries == [
          ActivityLog.Entry(
            time: .seconds(2),
            text:
              "AlbumScreen#1, closed 2.0 s ago, the cover arrived: the completion reads `unowned self`, freed, "
              + "and would crash the app here",
            kind: .wouldTrap(scenarioID: "unowned-capture"))
        ])
    case .weak:
      #expect(
        entries.map(\.text) == [
          "AlbumScreen#1, closed 2.0 s ago, the cover arrived: `[weak self]` is nil, nothing happens"
        ])
    }
  }
}
