import LeakClock

/// Everything the detector knows, guarded by its mutex.
struct DetectorState {
  /// An object expected to deallocate by `deadline`.
  struct Expectation {
    weak var object: AnyObject?
    let id: UInt64
    let parent: UInt64
    let expectedAt: Duration
    let deadline: Duration
  }

  /// Expectations sharing one grace delay: their deadlines only grow, so a
  /// bucket is a FIFO queue and a sweep pops from its front.
  struct Bucket {
    let delay: Duration
    var items: [Expectation] = []
    var head = 0

    var front: Expectation? { head < items.count ? items[head] : nil }
    var count: Int { items.count - head }

    mutating func popFront() -> Expectation {
      defer {
        head += 1
        if head == items.count {
          items.removeAll(keepingCapacity: items.count <= 4096)
          head = 0
        } else if head >= 4096, head * 2 >= items.count {
          items.removeFirst(head)
          head = 0
        }
      }
      return items[head]
    }
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
  var scheduledSweep: Duration?
  var isSweeping = false
  var withdrawn: Set<UInt64> = []
  var names = InstanceNames()
  var ignoredTypeNames: Set<String>
  var ignoredObjects: [ObjectIdentifier: WeakObject] = [:]
  var watched: [Watched] = []
  var budgets = Budgets()
  var history = EventHistory()

  init(ignoredTypeNames: Set<String>) {
    self.ignoredTypeNames = ignoredTypeNames
  }

  // MARK: Enqueueing

  /// Adds an expectation; returns whether the caller must schedule a sweep.
  mutating func enqueue(
    _ object: AnyObject, parent: UInt64, now: Duration, delay: Duration
  ) -> (scheduleSweep: Bool, id: UInt64) {
    let id = nextID
    nextID += 1
    let deadline = now + delay
    let expectation = Expectation(
      object: object, id: id, parent: parent, expectedAt: now, deadline: deadline)
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
      for item in bucket.items[bucket.head...] where item.object === object {
        withdrawn.insert(item.id)
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
  var nextExpectationDeadline: Duration? {
    buckets.compactMap { $0.front?.deadline }.min()
  }

  /// Whether anything needs re-checking even with no expectation due.
  var needsResolutionChecks: Bool {
    watched.contains { $0.object != nil || !$0.folded.isEmpty } || budgets.hasOpenIssues
  }

  var nextSweepDeadline: Duration? { scheduledSweep }

  /// Pops every expectation due at `now`, in deadline order across buckets.
  mutating func popDue(now: Duration) -> [Expectation] {
    var due: [Expectation] = []
    while true {
      var best: Int?
      for index in buckets.indices {
        guard let front = buckets[index].front, front.deadline <= now else { continue }
        if let current = best, let other = buckets[current].front,
          (other.deadline, other.id) <= (front.deadline, front.id)
        {
          continue
        }
        best = index
      }
      guard let index = best else { break }
      due.append(buckets[index].popFront())
    }
    return due
  }

  var pendingCount: Int { buckets.reduce(0) { $0 + $1.count } }

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
