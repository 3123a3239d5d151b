import LeakDetector
import LeakLabLocking

/// Detector events waiting to become log lines.
///
/// The detector calls subscribers on the thread that caused the event; the
/// inbox takes them from any thread and the model drains it on the main actor.
final class EventInbox: Sendable {
  private let events = Locked<[LeakEvent]>([])

  /// Adds an event; called from the detector's subscription.
  func post(_ event: LeakEvent) {
    events.withLock { $0.append(event) }
  }

  /// Whether events are waiting.
  var isEmpty: Bool { events.withLock { $0.isEmpty } }

  /// Takes every waiting event, oldest first.
  func drain() -> [LeakEvent] {
    events.withLock { events in
      defer { events.removeAll() }
      return events
    }
  }
}

/// What `leaklab trap` printed in its child process, waiting for the log.
final class TrapInbox: Sendable {
  private let messages = Locked<[String]>([])

  /// Adds a message; called from the background thread that ran the child.
  func post(_ message: String) {
    messages.withLock { $0.append(message) }
  }

  /// Whether messages are waiting.
  var isEmpty: Bool { messages.withLock { $0.isEmpty } }

  /// Takes every waiting message, oldest first.
  func drain() -> [String] {
    messages.withLock { messages in
      defer { messages.removeAll() }
      return messages
    }
  }
}
