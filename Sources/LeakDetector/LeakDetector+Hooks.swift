import LeakLabLocking

/// The detector's callbacks, guarded by their own mutex so they are never
/// called while the detector's state is locked.
struct Hooks {
  var decide: (@Sendable (LeakEvent) -> LeakDecision)?
  var explain: (@Sendable (AnyObject) -> String?)?
  var site: (@Sendable (AnyObject) -> String?)?
  var subscribers: [(id: UInt64, handler: @Sendable (LeakEvent) -> Void)] = []
  var nextSubscriber: UInt64 = 1
}

/// A handle returned by ``LeakDetector/subscribe(_:)``.
public struct LeakSubscription: Sendable, Hashable {
  let id: UInt64
}

extension LeakDetector {
  /// The decision hook: called for every detected leak and exceeded budget;
  /// answers report, log only, or ignore. Without a hook everything is reported.
  ///
  /// ```swift
  /// detector.onDetect = { event in
  ///   event.typeName == "ImageCache" ? .ignore : .report
  /// }
  /// ```
  public var onDetect: (@Sendable (LeakEvent) -> LeakDecision)? {
    get { hooks.withLock { $0.decide } }
    set { hooks.withLock { $0.decide = newValue } }
  }

  /// Explains why a detected object is still alive (its retain path).
  ///
  /// Called once per detection with the live object, outside the detector's
  /// lock; the text is stored in ``LeakedInstance/retainPath`` and appended to
  /// the detection message.
  public var explainer: (@Sendable (AnyObject) -> String?)? {
    get { hooks.withLock { $0.explain } }
    set { hooks.withLock { $0.explain = newValue } }
  }

  /// Says where a detected object was allocated (`allocated in … at
  /// File.swift:42`), when something recorded it.
  ///
  /// Called once per detection with the live object, outside the detector's
  /// lock; the text is stored in ``LeakedInstance/allocationSite``.
  public var allocationSite: (@Sendable (AnyObject) -> String?)? {
    get { hooks.withLock { $0.site } }
    set { hooks.withLock { $0.site = newValue } }
  }

  /// Never report objects whose unqualified type name is `typeName`.
  public func ignore(typeNamed typeName: String) {
    state.withLock { _ = $0.ignoredTypeNames.insert(typeName) }
  }

  /// Calls `handler` with every event, in order, on the thread that caused it.
  @discardableResult
  public func subscribe(_ handler: @escaping @Sendable (LeakEvent) -> Void) -> LeakSubscription {
    let id = hooks.withLock { hooks in
      defer { hooks.nextSubscriber += 1 }
      hooks.subscribers.append((hooks.nextSubscriber, handler))
      return hooks.nextSubscriber
    }
    subscriberCount.add(1, ordering: .relaxed)
    return LeakSubscription(id: id)
  }

  /// Stops delivering events to a subscriber.
  public func unsubscribe(_ subscription: LeakSubscription) {
    let removed = hooks.withLock { hooks in
      let before = hooks.subscribers.count
      hooks.subscribers.removeAll { $0.id == subscription.id }
      return before - hooks.subscribers.count
    }
    if removed > 0 { subscriberCount.subtract(removed, ordering: .relaxed) }
  }

  var hasSubscribers: Bool { subscriberCount.load(ordering: .relaxed) > 0 }

  func deliver(_ events: [LeakEvent]) {
    guard !events.isEmpty, hasSubscribers else { return }
    let handlers = hooks.withLock { $0.subscribers.map(\.handler) }
    for event in events {
      for handler in handlers { handler(event) }
    }
  }
}
