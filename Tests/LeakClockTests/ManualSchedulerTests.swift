import LeakClock
import Testing

@MainActor
@Suite struct ManualSchedulerTests {
  @Test func workRunsOnlyWhenItsDeadlineIsReached() {
    let scheduler = ManualScheduler()
    var fired = false
    scheduler.schedule(after: .seconds(2)) { fired = true }
    scheduler.advance(by: .seconds(1))
    #expect(!fired)
    #expect(scheduler.now == .seconds(1))
    scheduler.advance(by: .seconds(1))
    #expect(fired)
  }

  @Test func dueWorkRunsInDeadlineOrderThenSchedulingOrder() {
    let scheduler = ManualScheduler()
    var order: [String] = []
    scheduler.schedule(after: .seconds(3)) { order.append("c") }
    scheduler.schedule(after: .seconds(1)) { order.append("a") }
    scheduler.schedule(after: .seconds(3)) { order.append("d") }
    scheduler.schedule(after: .seconds(2)) { order.append("b") }
    scheduler.advance(by: .seconds(10))
    #expect(order == ["a", "b", "c", "d"])
  }

  @Test func nowEqualsTheDeadlineWhileWorkRuns() {
    let scheduler = ManualScheduler()
    var seen: [Duration] = []
    scheduler.schedule(after: .milliseconds(1500)) { seen.append(scheduler.now) }
    scheduler.schedule(after: .seconds(4)) { seen.append(scheduler.now) }
    scheduler.advance(by: .seconds(5))
    #expect(seen == [.milliseconds(1500), .seconds(4)])
    #expect(scheduler.now == .seconds(5))
  }

  @Test func workScheduledByWorkRunsInTheSameAdvanceWhenDue() {
    let scheduler = ManualScheduler()
    var fired: [Duration] = []
    scheduler.schedule(after: .seconds(1)) {
      fired.append(scheduler.now)
      scheduler.schedule(after: .seconds(1)) { fired.append(scheduler.now) }
    }
    scheduler.advance(by: .seconds(3))
    #expect(fired == [.seconds(1), .seconds(2)])
  }

  @Test func cancelledWorkNeverRunsAndIsReleased() {
    final class Payload {}
    let scheduler = ManualScheduler()
    weak var weakPayload: Payload?
    var fired = false
    do {
      let payload = Payload()
      weakPayload = payload
      let item = scheduler.schedule(after: .seconds(1)) {
        _ = payload
        fired = true
      }
      #expect(scheduler.pendingWork.count == 1)
      item.cancel()
    }
    #expect(weakPayload == nil)
    scheduler.advance(by: .seconds(2))
    #expect(!fired)
    #expect(scheduler.pendingWork.isEmpty)
  }

  @Test func pendingWorkKeepsItsCapturesAliveUntilItRuns() {
    final class Payload {}
    let scheduler = ManualScheduler()
    weak var weakPayload: Payload?
    do {
      let payload = Payload()
      weakPayload = payload
      scheduler.schedule(after: .seconds(10)) { _ = payload }
    }
    #expect(weakPayload != nil)
    scheduler.advance(by: .seconds(10))
    #expect(weakPayload == nil)
  }

  @Test func repeatingWorkFiresEveryIntervalUntilInvalidated() {
    let scheduler = ManualScheduler()
    var ticks: [Duration] = []
    let timer = scheduler.scheduleRepeating(every: .seconds(1)) { ticks.append(scheduler.now) }
    scheduler.advance(by: .milliseconds(3500))
    #expect(ticks == [.seconds(1), .seconds(2), .seconds(3)])
    timer.invalidate()
    scheduler.advance(by: .seconds(5))
    #expect(ticks.count == 3)
    #expect(!timer.isValid)
    #expect(scheduler.pendingWork.isEmpty)
  }

  /// A run loop's timers end with the run loop: a scheduler nobody keeps is
  /// freed with the repeating work armed on it (they used to keep each other).
  @Test func aDroppedSchedulerEndsWithItsRepeatingWork() {
    weak var weakScheduler: ManualScheduler?
    weak var weakTimer: RepeatingWork?
    do {
      let scheduler = ManualScheduler()
      let timer = scheduler.scheduleRepeating(every: .seconds(1)) {}
      scheduler.advance(by: .seconds(2))
      #expect(timer.isValid)
      weakScheduler = scheduler
      weakTimer = timer
    }
    #expect(weakScheduler == nil)
    #expect(weakTimer == nil)
  }

  @Test func runUntilIdleJumpsToEachDeadline() {
    let scheduler = ManualScheduler()
    var fired = 0
    scheduler.schedule(after: .seconds(100)) { fired += 1 }
    scheduler.schedule(after: .seconds(7)) { fired += 1 }
    #expect(scheduler.runUntilIdle() == 2)
    #expect(fired == 2)
    #expect(scheduler.now == .seconds(100))
  }
}

// MARK: Polls

@MainActor
@Suite struct ManualSchedulerPollTests {
  /// A poll that re-arms itself every 100 ms, as the detector's re-check does.
  final class Poller: @unchecked Sendable {
    let scheduler: ManualScheduler
    var runs: [Duration] = []
    private var pending: ScheduledWork?
    init(_ scheduler: ManualScheduler) { self.scheduler = scheduler }
    func arm() {
      pending = scheduler.schedulePoll(after: .milliseconds(100)) { [self] in
        runs.append(scheduler.now)
        arm()
      }
    }
    /// Cancels the next run, so the poller and the scheduler can go away.
    func stop() { pending?.cancel() }
  }

  @Test func aPollWithNothingElseHappeningRunsOncePerAdvance() {
    let scheduler = ManualScheduler()
    let poller = Poller(scheduler)
    poller.arm()
    scheduler.advance(by: .seconds(3600))
    #expect(poller.runs == [.milliseconds(100)])
    scheduler.advance(by: .seconds(3600))
    #expect(poller.runs == [.milliseconds(100), .seconds(3600)])
    #expect(scheduler.now == .seconds(7200))
    poller.stop()
  }

  @Test func aWaitingPollRunsRightAfterOtherWork() {
    let scheduler = ManualScheduler()
    let poller = Poller(scheduler)
    var order: [String] = []
    poller.arm()
    scheduler.schedule(after: .milliseconds(2500)) { order.append("work at \(scheduler.now)") }
    scheduler.advance(by: .seconds(10))
    #expect(order == ["work at 2.5 seconds"])
    #expect(poller.runs == [.milliseconds(100), .milliseconds(2500)])
    poller.stop()
  }

  @Test func waitingPollsAreStillPendingWorkAndCanBeCancelled() {
    let scheduler = ManualScheduler()
    var ran = false
    let poll = scheduler.schedulePoll(after: .seconds(1)) { ran = true }
    #expect(scheduler.pendingWork.count == 1)
    poll.cancel()
    scheduler.advance(by: .seconds(2))
    #expect(!ran)
    #expect(scheduler.pendingWork.isEmpty)
  }
}
