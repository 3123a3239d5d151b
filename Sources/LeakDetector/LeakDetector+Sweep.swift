import LeakClock

extension LeakDetector {
  /// A leak candidate found by a sweep: alive past its deadline.
  struct Candidate {
    let object: AnyObject
    let id: UInt64
    let parent: UInt64
    let expectedAt: Duration
  }

  /// What a sweep decided for one candidate, committed under the lock.
  enum Verdict {
    case report(AnyObject, LeakedInstance)
    case fold(AnyObject, into: UInt64, FoldedMemberInfo)
    case ignore(AnyObject, id: UInt64)
  }

  struct FoldedMemberInfo {
    let id: UInt64
    let parent: UInt64
    let expectedAt: Duration
    let name: String
  }

  /// Checks every expectation that is due, re-checks open leaks and budgets,
  /// and schedules the next sweep.
  ///
  /// The scheduler calls this by itself; calling it directly is safe (a sweep
  /// already under way makes a second call return at once).
  public func sweep() {
    sweep(scheduledFor: nil)
  }

  /// A sweep; `deadline` is set when the scheduler runs the sweep planned for it.
  ///
  /// That sweep always clears its own plan, even when the clock reads a little
  /// before `deadline` (a live clock can: the coarse monotonic clock lags the
  /// timer that ran the work), so that the sweep it plans next is scheduled.
  /// Otherwise one early run would leave a plan nobody runs, and no further
  /// leak, check or resolution would ever be seen.
  func sweep(scheduledFor deadline: Int64?) {
    let now = scheduler.now
    // 1. Under the lock: collect what is due and what resolved.
    guard var batch = state.withLock({ $0.beginSweep(now: now, scheduledFor: deadline) }) else { return }
    // 2. Outside the lock: name, explain and decide each candidate.
    let verdicts = decide(batch.candidates, foldTargets: batch.foldTargets, now: now)
    // 3. Under the lock again: commit, and find when to sweep next.
    let (events, next) = state.withLock { state in
      state.commit(verdicts, now: now, batch: &batch, poll: configuration.resolutionCheckInterval)
    }
    deliver(events)
    if let deadline = next.deadline { scheduleSweep(atNanoseconds: deadline) }
    if let poll = next.poll { scheduleSweep(atNanoseconds: poll, isPoll: true) }
    // `batch` and `verdicts` hold the strong references taken while checking;
    // they are released here, after the lock, so a deinit never runs inside it.
  }

  /// Schedules a sweep: for an expectation deadline, or as a poll, which only
  /// re-checks open leaks and budgets (a simulated clock may defer it until
  /// something else has run; see ``Scheduler/schedulePoll(after:_:)``).
  func scheduleSweep(atNanoseconds deadline: Int64, isPoll: Bool = false) {
    let delay = Duration.nanoseconds(max(deadline - scheduler.nowNanoseconds, 0))
    if isPoll {
      scheduler.schedulePoll(after: delay) { [weak self] in self?.sweep(scheduledFor: deadline) }
    } else {
      scheduler.schedule(after: delay) { [weak self] in self?.sweep(scheduledFor: deadline) }
    }
  }

  private func decide(
    _ candidates: [Candidate], foldTargets: [UInt64: UInt64], now: Duration
  ) -> [Verdict] {
    guard !candidates.isEmpty else { return [] }
    let (decideHook, explain, site) = hooks.withLock { ($0.decide, $0.explain, $0.site) }
    var foldTargets = foldTargets
    var verdicts: [Verdict] = []
    for candidate in candidates {
      let (typeName, number, ignoredType) = state.withLock { state in
        let (typeName, number) = state.names.number(of: candidate.object)
        return (typeName, number, state.ignoredTypeNames.contains(typeName))
      }
      let name = "\(typeName)#\(number)"
      if candidate.parent != 0, let target = foldTargets[candidate.parent] {
        foldTargets[candidate.id] = target
        let info = FoldedMemberInfo(
          id: candidate.id, parent: candidate.parent, expectedAt: candidate.expectedAt, name: name)
        verdicts.append(.fold(candidate.object, into: target, info))
        continue
      }
      if ignoredType {
        verdicts.append(.ignore(candidate.object, id: candidate.id))
        continue
      }
      let path = explain?(candidate.object)
      let age = now - candidate.expectedAt
      var message = "\(name) is still alive \(age.formattedSeconds) after it should have deallocated"
      if let path { message += "; retained by: \(path)" }
      let event = LeakEvent(
        kind: .detected, typeName: typeName, instance: number, name: name, time: now, age: age,
        message: message, decision: nil)
      let decision = decideHook?(event) ?? .report
      guard decision != .ignore else {
        verdicts.append(.ignore(candidate.object, id: candidate.id))
        continue
      }
      foldTargets[candidate.id] = candidate.id
      let record = LeakedInstance(
        id: candidate.id, typeName: typeName, instance: number, expectedAt: candidate.expectedAt,
        detectedAt: now, status: .open, decision: decision, retainPath: path, folded: [],
        allocationSite: site?(candidate.object))
      verdicts.append(.report(candidate.object, record))
    }
    return verdicts
  }
}

extension Duration {
  /// `1.0 s`, `10.5 s`, `0.25 s`: seconds for people.
  public var formattedSeconds: String {
    let value = seconds
    let tenths = (value * 10).rounded() / 10
    if abs(value - tenths) < 0.0005 {
      return "\(tenths.formatted1) s"
    }
    return "\(((value * 1000).rounded() / 1000)) s"
  }
}

extension Double {
  fileprivate var formatted1: String {
    let scaled = Int((self * 10).rounded())
    let sign = scaled < 0 ? "-" : ""
    return "\(sign)\(abs(scaled) / 10).\(abs(scaled) % 10)"
  }
}
