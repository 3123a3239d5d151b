import LeakClock

/// Everything the detector knows, guarded by its mutex.
struct DetectorState {
  /// An object expected to deallocate by `deadline`.
  /// 32 bytes. Times are whole nanoseconds on the scheduler's timeline (a
  /// `Duration`'s 128-bit arithmetic is a call per operation); the moment it
  /// was expected is `deadline - bucket.delay`.
  struct Expectation {
    /// Released exactly once: when popped by a sweep, or when the detector goes away.
    let reference: UnownedObject
    let id: UInt64
    let parent: UInt64
    let deadline: Int64
  }

  /// Expectations sharing one grace delay: their deadlines only grow, so a
  /// bucket is a FIFO queue and a sweep pops from its front.
  struct Bucket {
    let delay: Int64
    var items = ChunkedQueue<Expectation>()
    /// Expectations handed over together, oldest first, while someone
    /// subscribes: each becomes one `checked` event (see `DetectorState+Checks`).
    var groups = ChunkedQueue<CheckGroup>()

    var front: Expectation? { items.first }
    var count: Int { items.count }
  }

  /// A descendant found alive together with a reported ancestor.
  struct FoldedMember {
    weak var object: AnyObject?
    let id: UInt64
    let parent: UInt64
    let expectedAt: Duration
    let name: String
  }

  /// A detected leak and the weak reference used to notice its resolution.
  struct Watched {
    weak var object: AnyObject?
    var record: LeakedInstance
    var folded: [FoldedMember] = []
  }

  var buckets: [Bucket] = []
  var nextID: UInt64 = 1
  /// When the next sweep for an expectation deadline is scheduled.
  var scheduledSweep: Int64?
  /// When the next poll (re-checking open leaks and budgets) is scheduled.
  var scheduledPoll: Int64?
  var isSweeping = false
  var withdrawn: Set<UInt64> = []
  var names = InstanceNames()
  var ignoredTypeNames: Set<String>
  var ignoredObjects: [InvertedAddress: WeakObject] = [:]
  var watched: [Watched] = []
  var budgets = Budgets()
  var history = EventHistory()

  init(ignoredTypeNames: Set<String>) {
    self.ignoredTypeNames = ignoredTypeNames
  }

  // MARK: Enqueueing

  /// Adds an expectation; returns whether the caller must schedule a sweep.
  mutating func enqueue(
    _ object: AnyObject, parent: UInt64, now: Int64, delay: Int64
  ) -> (scheduleSweep: Bool, id: UInt64) {
    let id = nextID
    nextID += 1
    let deadline = now + delay
    let expectation = Expectation(
      reference: UnownedObject(object), id: id, parent: parent, deadline: deadline)
    if let index = buckets.firstIndex(where: { $0.delay == delay }) {
      buckets[index].items.append(expectation)
    } else {
      var bucket = Bucket(delay: delay)
      bucket.items.append(expectation)
      buckets.append(bucket)
    }
    if let scheduled = scheduledSweep, scheduled <= deadline { return (false, id) }
    scheduledSweep = deadline
    return (true, id)
  }

  mutating func withdraw(_ object: AnyObject) {
    for bucket in buckets {
      bucket.items.forEach { item in
        if item.reference.refers(to: object) { withdrawn.insert(item.id) }
      }
    }
  }

  mutating func expectedEvent(for object: AnyObject, now: Duration) -> LeakEvent {
    let typeName = names.typeName(of: type(of: object))
    return LeakEvent(
      kind: .expected, typeName: typeName, instance: nil, name: typeName, time: now, age: .zero,
      message: "\(typeName) should deallocate soon", decision: nil)
  }

  // MARK: Sweeping

  /// The earliest deadline among open expectations.
  var nextExpectationDeadline: Int64? {
    buckets.compactMap { $0.front?.deadline }.min()
  }

  /// Whether anything needs re-checking even with no expectation due.
  var needsResolutionChecks: Bool {
    watched.contains { $0.object != nil || !$0.folded.isEmpty } || budgets.hasOpenIssues
  }

  /// Pops every expectation due at `now` and returns those whose object is
  /// still alive, in deadline order across buckets. Dead ones cost one failed
  /// `tryRetain` and the release of our unowned reference.
  mutating func popDue(now: Int64) -> [(Expectation, AnyObject, expectedAt: Duration)] {
    var alive: [(Expectation, AnyObject, expectedAt: Duration)] = []
    for index in buckets.indices {
      let delay = buckets[index].delay
      while let item = buckets[index].items.first, item.deadline <= now {
        _ = buckets[index].items.removeFirst()
        guard let object = item.reference.load() else { continue }
        alive.append((item, object, .nanoseconds(item.deadline - delay)))
      }
    }
    if buckets.count > 1 {
      alive.sort { ($0.0.deadline, $0.0.id) < ($1.0.deadline, $1.0.id) }
    }
    return alive
  }

  var pendingCount: Int { buckets.reduce(0) { $0 + $1.count } }

  /// Releases every open expectation's reference; called when the detector goes away.
  mutating func releaseAll() {
    for bucket in buckets {
      bucket.items.forEach { $0.reference.release() }
    }
    buckets = []
  }

  func snapshot(now: Duration) -> LeakReport {
    LeakReport(
      time: now,
      leaks: watched.map(\.record).filter { $0.decision == .report },
      logged: watched.map(\.record).filter { $0.decision == .logOnly },
      budgetIssues: budgets.openIssues,
      pendingExpectations: pendingCount)
  }
}

/// A weak reference in a value.
struct WeakObject {
  weak var object: AnyObject?
}

/// The last events, oldest first, up to a limit.
struct EventHistory: Sequence {
  private var events: [LeakEvent] = []
  private var start = 0
  var limit = 1000

  mutating func append(_ event: LeakEvent) {
    events.append(event)
    if events.count - start > limit { start += 1 }
    if start > limit {
      events.removeFirst(start)
      start = 0
    }
  }

  func makeIterator() -> ArraySlice<LeakEvent>.Iterator {
    events[start...].makeIterator()
  }
}
