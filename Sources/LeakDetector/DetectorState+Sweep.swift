/// The two locked halves of a sweep.
extension DetectorState {
  struct SweepBatch {
    var candidates: [LeakDetector.Candidate] = []
    /// Expectation id -> id of the open report it folds into.
    var foldTargets: [UInt64: UInt64] = [:]
    var events: [LeakEvent] = []
    /// Popped expectations whose object was alive, for `checked` events.
    var aliveIDs: [UInt64] = []
    /// Those of them not counted at all: shown again, or ignored.
    var excludedIDs: [UInt64] = []
  }

  /// Collects due expectations that are still alive, resolves open leaks
  /// whose object is gone, and re-counts exceeded budgets.
  /// `deadline` is the planned time when the scheduler runs a planned sweep.
  mutating func beginSweep(now: Duration, scheduledFor deadline: Int64? = nil) -> SweepBatch? {
    guard !isSweeping else { return nil }
    isSweeping = true
    let nowNanoseconds = now.wholeNanoseconds
    if let scheduled = scheduledSweep, scheduled <= nowNanoseconds || scheduled == deadline {
      scheduledSweep = nil
    }
    if let scheduled = scheduledPoll, scheduled <= nowNanoseconds || scheduled == deadline {
      scheduledPoll = nil
    }
    var batch = SweepBatch()

    resolveWatched(now: now, into: &batch)

    for (expectation, object, expectedAt) in popDue(now: nowNanoseconds) {
      batch.aliveIDs.append(expectation.id)
      if withdrawn.remove(expectation.id) != nil {
        batch.excludedIDs.append(expectation.id)
        continue
      }
      if let ignored = ignoredObjects[InvertedAddress(object)], ignored.object === object {
        batch.excludedIDs.append(expectation.id)
        continue
      }
      // Already reported and still open: not a second leak.
      if watched.contains(where: { $0.record.isOpen && $0.object === object }) { continue }
      batch.candidates.append(
        .init(object: object, id: expectation.id, parent: expectation.parent, expectedAt: expectedAt))
    }
    if !withdrawn.isEmpty, pendingCount == 0 { withdrawn.removeAll() }

    for issue in budgets.recount() {
      batch.events.append(
        LeakEvent(
          kind: .budgetCleared, typeName: issue.name, instance: nil, name: issue.name, time: now,
          age: .zero, message: "\(issue.label): back within budget", decision: nil))
    }
    return batch
  }

  private mutating func resolveWatched(now: Duration, into batch: inout SweepBatch) {
    for index in watched.indices {
      if watched[index].object == nil, watched[index].record.isOpen {
        let after = now - watched[index].record.expectedAt
        watched[index].record.status = .resolved(after: after)
        let record = watched[index].record
        batch.events.append(
          LeakEvent(
            kind: .resolved, typeName: record.typeName, instance: record.instance, name: record.name,
            time: now, age: after,
            message: "\(record.name) deallocated: resolved after \(after.formattedSeconds)",
            decision: record.decision))
        // Descendants that outlive their reported ancestor are re-examined on their own.
        for member in watched[index].folded {
          guard let object = member.object else { continue }
          batch.candidates.append(
            .init(object: object, id: member.id, parent: member.parent, expectedAt: member.expectedAt))
        }
        watched[index].folded = []
      } else {
        watched[index].folded.removeAll { $0.object == nil }
      }
      if watched[index].record.isOpen {
        batch.foldTargets[watched[index].record.id] = watched[index].record.id
        for member in watched[index].folded {
          batch.foldTargets[member.id] = watched[index].record.id
        }
      }
    }
  }

  /// When to sweep next: for the earliest open expectation, and to poll open
  /// leaks and budgets (nil where nothing new needs scheduling).
  struct NextSweeps {
    var deadline: Int64?
    var poll: Int64?
  }

  /// Applies the verdicts, records events, and returns when to sweep next.
  mutating func commit(
    _ verdicts: [LeakDetector.Verdict], now: Duration, batch: inout SweepBatch, poll: Duration
  ) -> ([LeakEvent], NextSweeps) {
    var events = batch.events
    for verdict in verdicts {
      switch verdict {
      case .report(let object, let record):
        watched.append(Watched(object: object, record: record))
        events.append(
          LeakEvent(
            kind: .detected, typeName: record.typeName, instance: record.instance, name: record.name,
            time: now, age: now - record.expectedAt,
            message: detectionMessage(record, now: now), decision: record.decision))
      case .fold(let object, let target, let info):
        guard let index = watched.firstIndex(where: { $0.record.id == target }) else { continue }
        watched[index].folded.append(
          FoldedMember(
            object: object, id: info.id, parent: info.parent, expectedAt: info.expectedAt, name: info.name))
        watched[index].record.folded.append(info.name)
      case .ignore(let object, let id):
        ignoredObjects[InvertedAddress(object)] = WeakObject(object: object)
        batch.excludedIDs.append(id)
      }
    }
    trimWatched()
    for event in events { history.append(event) }
    events += completedChecks(alive: batch.aliveIDs, excluded: batch.excludedIDs, now: now)
    isSweeping = false

    var next = NextSweeps()
    if let deadline = nextExpectationDeadline, scheduledSweep.map({ $0 > deadline }) ?? true {
      scheduledSweep = deadline
      next.deadline = deadline
    }
    if needsResolutionChecks {
      let check = (now + poll).wholeNanoseconds
      if scheduledPoll.map({ $0 > check }) ?? true {
        scheduledPoll = check
        next.poll = check
      }
    }
    return (events, next)
  }

  private func detectionMessage(_ record: LeakedInstance, now: Duration) -> String {
    var message =
      "\(record.name) is still alive \((now - record.expectedAt).formattedSeconds) after it should have deallocated"
    if let path = record.retainPath { message += "; retained by: \(path)" }
    return message
  }

  /// Keeps resolved reports within the history limit; open ones are never dropped.
  private mutating func trimWatched() {
    let resolved = watched.reduce(0) { $0 + ($1.record.isOpen ? 0 : 1) }
    var excess = resolved - history.limit
    guard excess > 0 else { return }
    watched.removeAll { entry in
      guard excess > 0, !entry.record.isOpen else { return false }
      excess -= 1
      return true
    }
  }
}
