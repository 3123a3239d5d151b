extension LeakDetector {
  /// Tracks `object` against a lifetime budget, as LifetimeTracker does.
  ///
  /// More live instances of the type (or of the group) than `maxCount` is an
  /// issue, shown in the label as `TypeName (live/max)`; it clears when enough
  /// instances deallocate.
  ///
  /// ```swift
  /// final class ImageCache {
  ///   init(detector: LeakDetector) {
  ///     detector.track(self, maxCount: 1)
  ///   }
  /// }
  /// ```
  ///
  /// - Parameters:
  ///   - object: the instance to count; held weakly.
  ///   - maxCount: how many live instances are allowed.
  ///   - group: a budget shared by several types; the type's own name by default.
  public func track(_ object: AnyObject, maxCount: Int, group: String? = nil) {
    let now = scheduler.now
    let exceeded = state.withLock { state -> BudgetIssue? in
      let typeName = state.names.typeName(of: type(of: object))
      guard !state.ignoredTypeNames.contains(typeName) else { return nil }
      return state.budgets.track(object, name: group ?? typeName, maxCount: maxCount)
    }
    guard let issue = exceeded else { return }
    var event = LeakEvent(
      kind: .budgetExceeded, typeName: issue.name, instance: nil, name: issue.name, time: now, age: .zero,
      message: "\(issue.label): more live instances than allowed", decision: nil)
    let decide = hooks.withLock { $0.decide }
    let decision = decide?(event) ?? .report
    event.decision = decision
    let check = (now + configuration.resolutionCheckInterval).wholeNanoseconds
    let next = state.withLock { state -> Int64? in
      state.budgets.decide(issue.name, decision)
      if decision != .ignore { state.history.append(event) }
      if let scheduled = state.scheduledPoll, scheduled <= check { return nil }
      state.scheduledPoll = check
      return check
    }
    if decision != .ignore { deliver([event]) }
    if let next { scheduleSweep(atNanoseconds: next, isPoll: true) }
  }

  /// Live instances counted against a budget (type or group name), if tracked.
  public func liveCount(of budgetName: String) -> Int? {
    state.withLock { $0.budgets.liveCount(of: budgetName) }
  }
}
