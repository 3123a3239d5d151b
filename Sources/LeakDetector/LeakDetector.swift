import LeakClock
import LeakLabLocking
import Synchronization

/// Finds objects that outlive the moment they should have deallocated.
///
/// Hand the detector an object when it should go away — a screen that was
/// closed, a view that was removed — and it checks after a grace delay. An
/// object still alive then is a leak: it appears in the ``summaryLabel`` and in
/// ``report``, and a `detected` event is sent. If it deallocates later, a
/// `resolved` event follows and it leaves the label: a temporary leak.
///
/// ```swift
/// let scheduler = ManualScheduler()
/// let detector = LeakDetector(scheduler: scheduler)
/// detector.expectDeallocation(of: screen)
/// scheduler.advance(by: .seconds(1))
/// print(detector.summaryLabel)  // "Leaked: DetailScreen#1" or "No issues detected"
/// ```
///
/// The detector never extends a lifetime: an open expectation holds the
/// object's *unowned* reference count (no side table, unlike a weak
/// reference), so deinit runs when it would without the detector; only the
/// object's bare memory block waits for the next sweep. Reported leaks and
/// budgets hold weak references. It is thread-safe, and it has no per-object timer: one sweep over the open
/// expectations runs per tick of its scheduler.
public final class LeakDetector: Sendable {
  /// How the detector waits and what it ignores.
  public struct Configuration: Sendable {
    /// How long an object may live after it is expected to deallocate.
    public var graceDelay: Duration
    /// How often open leaks and exceeded budgets are re-checked for resolution.
    public var resolutionCheckInterval: Duration
    /// How many events ``LeakDetector/history`` keeps (oldest dropped first).
    public var historyLimit: Int
    /// Type names that are never reported.
    public var ignoredTypeNames: Set<String>

    /// Creates a configuration; the defaults suit a live app.
    public init(
      graceDelay: Duration = .seconds(1),
      resolutionCheckInterval: Duration = .milliseconds(100),
      historyLimit: Int = 1000,
      ignoredTypeNames: Set<String> = []
    ) {
      precondition(resolutionCheckInterval > .zero, "the resolution check interval must be positive")
      self.graceDelay = graceDelay
      self.resolutionCheckInterval = resolutionCheckInterval
      self.historyLimit = historyLimit
      self.ignoredTypeNames = ignoredTypeNames
    }
  }

  /// The scheduler that provides time and runs the detector's sweeps.
  public let scheduler: any Scheduler
  /// The configuration the detector was created with.
  public let configuration: Configuration

  let state: Locked<DetectorState>
  let hooks = Locked(Hooks())
  let subscriberCount = Atomic<Int>(0)
  /// The configuration's grace delay in nanoseconds, converted once.
  let graceDelayNanoseconds: Int64

  /// Creates a detector that waits and sweeps on `scheduler`.
  public init(scheduler: any Scheduler, configuration: Configuration = Configuration()) {
    self.scheduler = scheduler
    self.configuration = configuration
    self.graceDelayNanoseconds = configuration.graceDelay.wholeNanoseconds
    self.state = Locked(DetectorState(ignoredTypeNames: configuration.ignoredTypeNames))
  }

  deinit {
    state.withLock { $0.releaseAll() }
  }

  // MARK: Expectations

  /// Expects `object` to deallocate within the grace delay.
  ///
  /// - Parameters:
  ///   - object: the object that should go away; held weakly.
  ///   - delay: the grace delay for this object; the configuration's by default.
  public func expectDeallocation(of object: AnyObject, after delay: Duration? = nil) {
    let delay = delay?.wholeNanoseconds ?? graceDelayNanoseconds
    let now = scheduler.nowNanoseconds
    guard hasSubscribers else {
      let schedule = state.withLock { state in
        state.enqueue(object, parent: 0, now: now, delay: delay).scheduleSweep
      }
      if schedule { scheduleSweep(atNanoseconds: now + delay) }
      return
    }
    let (schedule, event) = state.withLock { state in
      let (schedule, id) = state.enqueue(object, parent: 0, now: now, delay: delay)
      let event = state.expectedEvent(for: object, now: .nanoseconds(now))
      state.recordGroup(firstID: id, lastID: id, delay: delay, expectedAt: now, typeName: event.typeName)
      return (schedule, event)
    }
    deliver([event])
    if schedule { scheduleSweep(atNanoseconds: now + delay) }
  }

  /// Expects `root` and every descendant reached through `children` to deallocate.
  ///
  /// A descendant still alive while an ancestor is reported is folded under the
  /// ancestor's report instead of being reported on its own.
  ///
  /// ```swift
  /// detector.expectDeallocation(ofTree: screen) { node in
  ///   (node as? View)?.subviews ?? []
  /// }
  /// ```
  public func expectDeallocation(
    ofTree root: AnyObject,
    after delay: Duration? = nil,
    children: (AnyObject) -> [AnyObject]
  ) {
    let delay = delay?.wholeNanoseconds ?? graceDelayNanoseconds
    let now = scheduler.nowNanoseconds
    // Depth-first, parents before children, so a sweep meets them in that order.
    var nodes: [(object: AnyObject, parentIndex: Int?)] = [(root, nil)]
    var index = 0
    var seen: Set<InvertedAddress> = [InvertedAddress(root)]
    while index < nodes.count {
      let node = nodes[index].object
      for child in children(node) where seen.insert(InvertedAddress(child)).inserted {
        nodes.append((child, index))
      }
      index += 1
    }
    let subscribed = hasSubscribers
    let (schedule, events) = state.withLock { state -> (Bool, [LeakEvent]) in
      var ids: [UInt64] = []
      ids.reserveCapacity(nodes.count)
      var schedule = false
      for node in nodes {
        let parent = node.parentIndex.map { ids[$0] } ?? 0
        let (needsSweep, id) = state.enqueue(node.object, parent: parent, now: now, delay: delay)
        schedule = schedule || needsSweep
        ids.append(id)
      }
      guard subscribed, let first = ids.first, let last = ids.last else { return (schedule, []) }
      let events = nodes.map { state.expectedEvent(for: $0.object, now: .nanoseconds(now)) }
      state.recordGroup(
        firstID: first, lastID: last, delay: delay, expectedAt: now, typeName: events[0].typeName)
      return (schedule, events)
    }
    deliver(events)
    if schedule { scheduleSweep(atNanoseconds: now + delay) }
  }

  /// Withdraws open expectations for `object`, for example because a closed
  /// screen was shown again before its grace delay ran out.
  public func withdrawExpectations(for object: AnyObject) {
    state.withLock { $0.withdraw(object) }
  }

  // MARK: Reading the state

  /// The summary label: `No issues detected` or `Leaked: …` (see ``SummaryLabel``).
  public var summaryLabel: String { report.summaryLabel }

  /// A snapshot of leaks, budget issues and pending expectations.
  public var report: LeakReport {
    let now = scheduler.now
    return state.withLock { $0.snapshot(now: now) }
  }

  /// Events other than `expected`, oldest first, up to the configured limit.
  public var history: [LeakEvent] { state.withLock { Array($0.history) } }

  /// The name the detector uses for `object`: `TypeName#n`, numbering the type's
  /// instances in the order the detector first names them.
  public func name(of object: AnyObject) -> String {
    state.withLock { $0.names.name(of: object) }
  }
}
