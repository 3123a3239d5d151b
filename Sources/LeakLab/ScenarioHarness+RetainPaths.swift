import LeakClock
import LeakDetector
import RetainGraph
import Scenarios

extension ScenarioHarness {
  /// Makes the detector explain each leak it reports with its retain path,
  /// as the app does.
  ///
  /// The notification center and the main queue are roots. A leak can hang
  /// off another one (the screen an alert's handler captures), so each
  /// object explained becomes a root for the ones after it; roots are held
  /// weakly. `observe` sees every explanation as it is made.
  ///
  /// With `searchesMemoryInBackground` (the live app), the detector gets the
  /// quick answer (the cycle, the registered roots) at once, and the search
  /// of the process's memory for a path from a true root runs on a
  /// low-priority thread: when its answer differs, it replaces the leak's
  /// retain path in the detector's report (on the scheduler) and `observe`
  /// sees it again. Otherwise (tests, `leaklab explain`) the whole answer is
  /// made at once, on the detecting thread.
  public func explainRetainPaths(
    searchesMemoryInBackground: Bool = false, observe: (@Sendable (Explanation) -> Void)? = nil
  ) {
    let detector = self.detector
    let scheduler = self.scheduler
    let explainer = RetainExplainer(naming: { [weak detector] object in detector?.name(of: object) })
    explainer.registerRoot(environment.notificationCenter, name: "NotificationCenter")
    explainer.registerRoot(scheduler, name: "main queue")
    detector.explainer = { [weak detector] object in
      let explanation = explainer.explain(object, searchingMemory: !searchesMemoryInBackground)
      observe?(explanation)
      explainer.registerRoot(object)
      if searchesMemoryInBackground {
        let weakObject = WeakBox(object)
        let quick = explanation.description
        BackgroundWork.shared.enqueue { [weak detector] in
          guard let object = weakObject.object else { return }
          let full = explainer.explain(object)
          guard full.description != quick else { return }
          let result = WeakBox(object)
          scheduler.schedule(after: .zero) {
            // Only while this run's detector still reports the leak (not after a new run began).
            guard let object = result.object,
              detector?.updateRetainPath(of: object, to: full.description) == true
            else { return }
            observe?(full)
          }
        }
      }
      return explanation.description
    }
  }
}

/// An object held weakly across threads. `@unchecked Sendable`: the weak
/// reference is read and cleared atomically by the runtime.
private final class WeakBox: @unchecked Sendable {
  weak var object: AnyObject?
  init(_ object: AnyObject) { self.object = object }
}
