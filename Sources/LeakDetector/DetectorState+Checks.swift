/// `checked` events: what a sweep checked, and whether it all deallocated.
///
/// Objects handed over together (one `expectDeallocation` call: a closed
/// screen's whole tree) form a group. Once a sweep has popped the group's
/// last expectation, one `checked` event says how many were checked and how
/// many were still alive, so a clean run can say "all deallocated" instead
/// of saying nothing. Groups are kept only while someone subscribes (they
/// cost one entry per call, not per object), in the FIFO bucket of their
/// grace delay: a bucket's groups complete in order.
extension DetectorState {
  struct CheckGroup {
    let firstID: UInt64
    let lastID: UInt64
    /// When the group was expected, in nanoseconds.
    let expectedAt: Int64
    /// The first object's unqualified type name.
    let typeName: String
    let count: Int
  }

  /// Records that the expectations `firstID...lastID` were handed over together.
  mutating func recordGroup(
    firstID: UInt64, lastID: UInt64, delay: Int64, expectedAt: Int64, typeName: String
  ) {
    guard let index = buckets.firstIndex(where: { $0.delay == delay }) else { return }
    buckets[index].groups.append(
      CheckGroup(
        firstID: firstID, lastID: lastID, expectedAt: expectedAt, typeName: typeName,
        count: Int(lastID - firstID + 1)))
  }

  /// The `checked` events of every group whose last expectation has been
  /// popped, oldest group first. `alive` are popped expectations whose object
  /// was still alive; `excluded` are alive ones not counted at all (shown
  /// again, or ignored). A group with nothing left to count says nothing.
  mutating func completedChecks(alive: [UInt64], excluded: [UInt64], now: Duration) -> [LeakEvent] {
    guard buckets.contains(where: { !$0.groups.isEmpty }) else { return [] }
    let alive = alive.sorted()
    let excluded = excluded.sorted()
    var events: [LeakEvent] = []
    for index in buckets.indices {
      let frontID = buckets[index].front?.id ?? .max
      while let group = buckets[index].groups.first, group.lastID < frontID {
        _ = buckets[index].groups.removeFirst()
        let range = group.firstID...group.lastID
        let excludedCount = Self.count(of: excluded, in: range)
        let objects = group.count - excludedCount
        guard objects > 0 else { continue }
        let aliveCount = Self.count(of: alive, in: range) - excludedCount
        events.append(Self.checkedEvent(group, objects: objects, alive: max(0, aliveCount), now: now))
      }
    }
    return events.sorted { $0.age > $1.age }
  }

  private static func checkedEvent(_ group: CheckGroup, objects: Int, alive: Int, now: Duration) -> LeakEvent
  {
    let more = objects > 1 ? " and \(objects - 1) more" : ""
    let outcome =
      alive == 0
      ? (objects == 1 ? "deallocated" : "all \(objects) deallocated")
      : "\(alive) of \(objects) still alive"
    let age = now - .nanoseconds(group.expectedAt)
    return LeakEvent(
      kind: .checked, typeName: group.typeName, instance: nil, name: group.typeName, time: now, age: age,
      message: "checked \(group.typeName)\(more) \(age.formattedSeconds) after it was expected: \(outcome)",
      decision: nil, check: LeakEvent.Check(objects: objects, alive: alive))
  }

  /// How many of the sorted `ids` fall in `range`.
  private static func count(of ids: [UInt64], in range: ClosedRange<UInt64>) -> Int {
    guard !ids.isEmpty else { return 0 }
    return lowerBound(ids, range.upperBound + 1) - lowerBound(ids, range.lowerBound)
  }

  private static func lowerBound(_ ids: [UInt64], _ value: UInt64) -> Int {
    var low = 0
    var high = ids.count
    while low < high {
      let mid = (low + high) / 2
      if ids[mid] < value { low = mid + 1 } else { high = mid }
    }
    return low
  }
}
