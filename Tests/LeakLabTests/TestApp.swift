import LeakClock
import LeakDetector
import Scenarios

@testable import LeakLab

/// An app model on a manual clock with the sample scenarios.
@MainActor
struct TestApp {
  let scheduler = ManualScheduler()
  let model: AppModel

  init(catalogue: [Scenario] = SampleScenarios.all) {
    model = AppModel(catalogue: catalogue, scheduler: scheduler)
  }

  var state: AppState { model.state }
  var label: String { model.harness.detector.summaryLabel }

  func send(_ actions: AppAction...) {
    for action in actions { model.send(action) }
  }

  /// Moves the clock and lets the model notice; returns whether it redrew.
  @discardableResult
  func advance(_ duration: Duration) -> Bool {
    scheduler.advance(by: duration)
    return model.tick()
  }
}
