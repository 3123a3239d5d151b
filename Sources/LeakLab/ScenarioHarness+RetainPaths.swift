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
  public func explainRetainPaths(observe: (@Sendable (Explanation) -> Void)? = nil) {
    let detector = self.detector
    let explainer = RetainExplainer(naming: { [weak detector] object in detector?.name(of: object) })
    explainer.registerRoot(environment.notificationCenter, name: "NotificationCenter")
    explainer.registerRoot(scheduler, name: "main queue")
    detector.explainer = { object in
      let explanation = explainer.explain(object)
      observe?(explanation)
      explainer.registerRoot(object)
      return explanation.description
    }
  }
}
