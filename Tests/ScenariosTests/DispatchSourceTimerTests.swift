import Dispatch
import LeakClock
import ScreenKit
import Testing

import func LeakLabTestSupport.waitForDeallocation

@testable import Scenarios

/// `dispatch-source-timer`: a real `DispatchSourceTimer` on the main queue.
@MainActor
@Suite struct DispatchSourceTimerTests {
  @Test(arguments: ScenarioMode.allCases)
  func startResumesOneSourceAndAStartAgainCancelsTheFirst(mode: ScenarioMode) throws {
    let rig = Rig()
    let screen = try #require(
      rig.harness.open(Catalogue.dispatchSourceTimer, mode: mode) as? UploadProgressScreen)
    #expect(rig.harness.runAction(at: 0))
    let first = try #require(screen.timer)
    #expect(!first.isCancelled)
    #expect(rig.harness.runAction(at: 0))
    let second = try #require(screen.timer)
    #expect(first.isCancelled && !second.isCancelled)
    rig.harness.close()
    #expect(second.isCancelled == (mode == .weak), "only the fixed form cancels on close")
    second.cancel()
  }

  @Test(arguments: ScenarioMode.allCases)
  func libdispatchKeepsTheScreenOnlyInTheLeakyForm(mode: ScenarioMode) {
    let rig = Rig()
    weak let screen = rig.harness.open(Catalogue.dispatchSourceTimer, mode: mode) as? UploadProgressScreen
    rig.harness.runAction(at: 0)
    let source = screen?.timer
    rig.harness.close()
    let failure = waitForDeallocation(of: "UploadProgressScreen", on: rig.scheduler, timeout: .seconds(2)) {
      screen == nil
    }
    switch mode {
    case .strong:
      #expect(failure == "UploadProgressScreen was not deallocated within 2.0 s")
      #expect(rig.label == "Leaked: UploadProgressScreen#1")
      #expect(source?.isCancelled == false, "still armed: libdispatch keeps it and its handler")
    case .weak:
      #expect(failure == nil)
      #expect(rig.label == "No issues detected")
      #expect(source?.isCancelled == true)
    }
  }
}
