import RetainGraph
import Synchronization

/// The current run's retain-path explanations, whole, as the explainer makes
/// them: the app turns them into each leak's graph.
///
/// The detector explains a leak on the thread that detected it; the model
/// reads the log on the main actor.
final class ExplanationLog: Sendable {
  private let explanations = Mutex<[Explanation]>([])

  /// Adds an explanation; called from the detector's explainer.
  func append(_ explanation: Explanation) {
    explanations.withLock { $0.append(explanation) }
  }

  /// Forgets every explanation: a new run starts.
  func removeAll() {
    explanations.withLock { $0.removeAll() }
  }

  /// The explanations so far, oldest first.
  var all: [Explanation] { explanations.withLock { $0 } }

  /// How many explanations there are.
  var count: Int { explanations.withLock { $0.count } }
}
