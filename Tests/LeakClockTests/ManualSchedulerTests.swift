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
