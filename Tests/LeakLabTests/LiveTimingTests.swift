import LeakLabTestSupport
import Scenarios
import Testing

@testable import LeakLab

/// The real scenarios on a clock that sometimes reads behind the timer that
/// runs the work, as the live app's coarse clock does: the verdicts must be
/// the catalogue's whatever the timing (issue 10, defects 1 and 2).
@MainActor
@Suite struct LiveTimingTests {
  @Test func aDelayedDispatchLeakResolvesWhenLaterSweepsRunEarly() {
    let scheduler = EarlyTimerScheduler(onTimeUntil: .milliseconds(1200))
    let model = AppModel(catalogue: [Catalogue.delayedDispatch], scheduler: scheduler)
    model.send(.openKeyPressed)
    model.send(.actionKeyPressed(1))
    model.send(.closeKeyPressed)
    scheduler.advance(1)
    model.tick()
    #expect(model.state.report.summaryLabel == "Leaked: SyncScreen#1")
    scheduler.advance(10)
    model.tick()
    #expect(model.state.report.summaryLabel == "No issues detected")
    #expect(model.state.report.leaks.first?.isOpen == false)
    #expect(model.state.log.contains { $0.kind == .resolved && $0.text.hasPrefix("SyncScreen#1") })
  }

  @Test func anAlertClosedWithHumanTimingLeaksItsScreenToo() {
    // Delete, then Esc 0.3 s later: the alert's check comes first and is on
    // time; the checks after it run early.
    let scheduler = EarlyTimerScheduler(onTimeUntil: .milliseconds(1050))
    let model = AppModel(catalogue: [Catalogue.alertActionCapture], scheduler: scheduler)
    model.send(.openKeyPressed)
    model.send(.actionKeyPressed(1))
    model.send(.actionKeyPressed(2))
    scheduler.advance(0.3)
    model.send(.closeKeyPressed)
    scheduler.advance(3)
    model.tick()
    #expect(model.state.report.summaryLabel == "Leaked: AlertController#1, DraftsScreen#1")
  }
}
