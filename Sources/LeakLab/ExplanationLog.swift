import LeakLabLocking
import RetainGraph

/// The current run's retain-path explanations, whole, as the explainer makes
/// them: the app turns them into each leak's graph.
///
/// The detector explains a leak on the thread that detected it; a fuller
/// answer found later replaces that object's explanation. The model reads
/// the log on the main actor.
final class ExplanationLog: Sendable {
  private let explanations = Locked<(all: [Explanation], version: Int)>(([], 0))

  /// Adds an explanation, or replaces the one of the same object; called from the explainer.
  func append(_ explanation: Explanation) {
    explanations.withLock { log in
      if let index = log.all.firstIndex(where: {
        $0.object.address == explanation.object.address && $0.object.name == explanation.object.name
      }) {
        log.all[index] = explanation
      } else {
        log.all.append(explanation)
      }
      log.version += 1
    }
  }

  /// Forgets every explanation: a new run starts.
  func removeAll() {
    explanations.withLock { log in
      log.all.removeAll()
      log.version += 1
    }
  }

  /// The explanations so far, oldest first.
  var all: [Explanation] { explanations.withLock { $0.all } }

  /// How many explanations there are.
  var count: Int { explanations.withLock { $0.all.count } }

  /// Changes whenever an explanation is added or replaced.
  var version: Int { explanations.withLock { $0.version } }
}
