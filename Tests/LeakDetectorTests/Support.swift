import Foundation
import LeakClock
import LeakDetector

final class Screen: @unchecked Sendable {}
final class View {}
final class Cache {}
final class Model {}

/// A detector on a manual clock with a recorded event log, one per test.
@MainActor
struct Harness {
  let scheduler = ManualScheduler()
  let detector: LeakDetector
  let log = EventLog()

  init(_ configuration: LeakDetector.Configuration = .init()) {
    detector = LeakDetector(scheduler: scheduler, configuration: configuration)
    let log = self.log
    detector.subscribe { log.append($0) }
  }

  func advance(_ seconds: Double) {
    scheduler.advance(by: .milliseconds(Int64((seconds * 1000).rounded())))
  }

  var label: String { detector.summaryLabel }
}

/// Collects events from any thread.
final class EventLog: @unchecked Sendable {
  private var events: [LeakEvent] = []
  private let lock = NSLockish()

  func append(_ event: LeakEvent) { lock.locked { events.append(event) } }
  var all: [LeakEvent] { lock.locked { events } }
  var kinds: [LeakEvent.Kind] { all.map(\.kind) }
  func names(_ kind: LeakEvent.Kind) -> [String] { all.filter { $0.kind == kind }.map(\.name) }
}

final class NSLockish: @unchecked Sendable {
  private let lock = NSLock()
  func locked<T>(_ body: () -> T) -> T { lock.withLock(body) }
}
