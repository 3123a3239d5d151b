import Dispatch
import LeakClock
import LeakDetector
import Testing

/// Appends to a shared log when it deinitializes.
final class Witness: @unchecked Sendable {
  let name: String
  let log: EventLogOfStrings
  init(_ name: String, log: EventLogOfStrings) {
    self.name = name
    self.log = log
  }
  deinit { log.append("deinit \(name)") }
}

final class EventLogOfStrings: @unchecked Sendable {
  private var lines: [String] = []
  private let lock = NSLockish()
  func append(_ line: String) { lock.locked { lines.append(line) } }
  var all: [String] { lock.locked { lines } }
}

@MainActor
@Suite struct SafetyTests {
  @Test func trackingNeverExtendsALifetime() {
    let harness = Harness()
    let log = EventLogOfStrings()
    var tracked: Witness? = Witness("tracked", log: log)
    var untracked: Witness? = Witness("untracked", log: log)
    harness.detector.expectDeallocation(of: tracked!)
    harness.detector.track(tracked!, maxCount: 5)
    log.append("drop tracked")
    tracked = nil
    log.append("drop untracked")
    untracked = nil
    log.append("end")
    #expect(log.all == ["drop tracked", "deinit tracked", "drop untracked", "deinit untracked", "end"])
    _ = (tracked, untracked)
  }

  @Test func aReportedLeakIsNotKeptAliveByTheReport() {
    let harness = Harness()
    let log = EventLogOfStrings()
    var leaked: Witness? = Witness("leaked", log: log)
    harness.detector.expectDeallocation(of: leaked!)
    harness.advance(1)
    #expect(harness.label == "Leaked: Witness#1")
    leaked = nil
    #expect(log.all == ["deinit leaked"])
    _ = leaked
  }

  @Test func theDetectorItselfDeallocatesWithWorkStillScheduled() {
    let scheduler = ManualScheduler()
    weak var weakDetector: LeakDetector?
    let screen = Screen()
    do {
      let detector = LeakDetector(scheduler: scheduler)
      detector.subscribe { _ in }
      detector.expectDeallocation(of: screen)
      weakDetector = detector
    }
    #expect(weakDetector == nil)
    scheduler.advance(by: .seconds(2))  // the pending sweep finds no detector
    withExtendedLifetime(screen) {}
  }

  @Test func anObjectThatDiesWhileTheDetectorLooksAtItIsHandled() {
    let harness = Harness()
    let holder = Box()
    holder.screen = Screen()
    harness.detector.expectDeallocation(of: holder.screen!)
    // The explainer runs in the middle of a sweep; drop the last owner there.
    harness.detector.explainer = { _ in
      holder.screen = nil
      return "held by a test"
    }
    harness.advance(1)
    #expect(holder.screen == nil)
    harness.advance(0.1)
    #expect(harness.label == "No issues detected")
    #expect(harness.log.kinds == [.expected, .detected, .checked, .resolved])
  }

  @Test func expectationsFromManyThreadsAtOnceAreAllChecked() async {
    let harness = Harness()
    let detector = harness.detector
    let keep = Box()
    let survivors = (0..<64).map { _ in Screen() }
    keep.objects = survivors
    DispatchQueue.concurrentPerform(iterations: 8) { worker in
      for index in 0..<1000 {
        let object = Model()
        detector.expectDeallocation(of: object)
        if index % 125 == 0 { detector.expectDeallocation(of: survivors[worker * 8 + index / 125]) }
        detector.track(object, maxCount: 10_000)
      }
    }
    #expect(detector.report.pendingExpectations == 8064)
    harness.advance(1)
    let report = detector.report
    #expect(report.openLeaks.count == 64)
    #expect(Set(report.openLeaks.map(\.name)).count == 64)
    #expect(report.pendingExpectations == 0)
  }
}

final class Box: @unchecked Sendable {
  var screen: Screen?
  var objects: [AnyObject] = []
}
