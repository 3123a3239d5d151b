import LeakClock
import LeakDetector
import ProcessLeaks
import RetainGraph
import Scenarios

extension ScenarioHarness {
  /// Makes the detector explain each leak it reports with its retain path,
  /// as the app does.
  ///
  /// The notification center and the main queue are roots. A leak can hang
  /// off another one (the screen an alert's handler captures), so each
  /// object explained becomes a root for the ones after it ("kept by the
  /// leaked cycle of AlertController#1 → …"); roots are held weakly. `observe` sees every explanation as it is made.
  ///
  /// `rootPathSearch` says whether the process's memory is searched for a
  /// path from a true root: `.atDetection` (the default) makes the whole
  /// answer at once, on the detecting thread; `.inBackground` (the live app)
  /// gives the detector the quick answer (the cycle, the registered roots)
  /// at once and runs the memory search on a low-priority thread: when its
  /// answer differs, it replaces the leak's retain path in the detector's
  /// report (on the scheduler) and `observe` sees it again.
  public func explainRetainPaths(
    rootPathSearch: RootPathSearch = .atDetection, observe: (@Sendable (Explanation) -> Void)? = nil
  ) {
    explainRetainPaths(
      rootPathSearch: rootPathSearch, observe: observe, runInBackground: BackgroundWork.shared.enqueue)
  }

  /// Where objects were allocated, when the process runs with the allocation
  /// recorder preloaded (`leaklab --stacks`): each leak's site.
  nonisolated static let ownAllocationSites = OwnAllocationSites.isRecording ? OwnAllocationSites() : nil

  /// What the quick answer says of a leak no cycle or registered root
  /// explains while the memory search for its root runs.
  nonisolated static let searchingReason = "searching the process's memory for what holds it…"

  /// ``explainRetainPaths(rootPathSearch:observe:)`` with the memory search
  /// handed to `runInBackground` (tests keep it, to look at the quick answer).
  func explainRetainPaths(
    rootPathSearch: RootPathSearch, observe: (@Sendable (Explanation) -> Void)?,
    runInBackground: @escaping @Sendable (@escaping @Sendable () -> Void) -> Void
  ) {
    let detector = self.detector
    let scheduler = self.scheduler
    let explainer = RetainExplainer(naming: { [weak detector] object in detector?.name(of: object) })
    // The memory search's own explainer: a leak becomes one of its roots only
    // once it has been explained (in order, on the background thread).
    let background = RetainExplainer(naming: { [weak detector] object in detector?.name(of: object) })
    for each in [explainer, background] {
      each.registerRoot(environment.notificationCenter, name: "NotificationCenter")
      each.registerRoot(scheduler, name: "main queue")
    }
    if let sites = Self.ownAllocationSites {
      detector.allocationSite = { object in sites.site(of: object)?.summary }
    }
    detector.explainer = { [weak detector] object in
      var explanation = explainer.explain(object, searchingMemory: rootPathSearch == .atDetection)
      if rootPathSearch == .inBackground, case .notVisible = explanation.verdict {
        // It is not that memory cannot be searched: the search has begun.
        explanation.notVisibleReason = Self.searchingReason
      }
      observe?(explanation)
      explainer.registerLeak(object, inCycle: explanation.isCycle)
      if rootPathSearch == .inBackground {
        let weakObject = WeakBox(object)
        let quick = explanation.description
        runInBackground { [weak detector] in
          guard let object = weakObject.object else { return }
          let full = background.explain(object)
          background.registerLeak(object, inCycle: full.isCycle)
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

extension Explanation {
  /// Whether the verdict is a retain cycle.
  fileprivate var isCycle: Bool {
    if case .cycle = verdict { return true }
    return false
  }
}

/// An object held weakly across threads. `@unchecked Sendable`: the weak
/// reference is read and cleared atomically by the runtime.
private final class WeakBox: @unchecked Sendable {
  weak var object: AnyObject?
  init(_ object: AnyObject) { self.object = object }
}
