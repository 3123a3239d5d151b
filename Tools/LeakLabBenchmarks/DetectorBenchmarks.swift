import Dispatch
import Foundation
import LeakClock
import LeakDetector

/// Detector cost per object: `expectDeallocation` plus one sweep, against the
/// mechanism LeakedViewControllerDetector and MLeaksFinder use — one delayed
/// dispatch block per object on the main queue, capturing it weakly.
///
/// All columns are CPU time, so the idle wait for a delay does not count: the
/// detector's is its calling thread's (it uses no other, and libdispatch
/// threads still tidying up after an earlier run are not charged to it); the
/// blocks' is the whole process's, so libdispatch's timer and worker threads
/// count.
enum DetectorBenchmarks {
  final class Tracked: @unchecked Sendable {}

  @MainActor
  static func run() {
    var rows: [[String]] = []
    for exponent in 3...6 {
      let count = Int(pow10(exponent))
      let repetitions = exponent == 6 ? 3 : 5
      let sweep = median(repetitions: repetitions) { detectorExpectAndSweep(count) }
      let delayed = median(repetitions: repetitions) { settled { delayedBlockPerObject(count) } }
      let due = median(repetitions: repetitions) { settled { dueBlockPerObject(count) } }
      rows.append([
        "10^\(exponent)", nanosecondsPerItem(sweep, count),
        nanosecondsPerItem(delayed, count), ratio(delayed, sweep),
        nanosecondsPerItem(due, count), ratio(due, sweep),
      ])
    }
    printTable(
      title: "LeakDetector: expect + sweep, CPU ns per object (median)",
      header: [
        "open expectations", "detector", "asyncAfter 1 s, main (LVCD)", "ratio",
        "block already due", "ratio",
      ],
      rows: rows)
    print(
      """
      asyncAfter 1 s: what LVCD and MLeaksFinder do — a timer per object, run on the main queue.
      block already due: the lower bound of any per-object block (no timer; a suspended queue).
      """)
  }

  /// Runs `body` once libdispatch's threads have finished what an earlier
  /// run left behind (timer sources are disposed of after their block ran),
  /// so process CPU time charges each run with its own work only.
  private static func settled(_ body: () -> Duration) -> Duration {
    usleep(100_000)
    return body()
  }

  private static func pow10(_ exponent: Int) -> Double {
    (0..<exponent).reduce(1.0) { value, _ in value * 10 }
  }

  /// Expects `count` objects, lets them deallocate, then runs the one sweep.
  @MainActor
  static func detectorExpectAndSweep(_ count: Int) -> Duration {
    let scheduler = ManualScheduler()
    let detector = LeakDetector(scheduler: scheduler)
    var objects = (0..<count).map { _ in Tracked() }
    let expecting = cpuTime(.thread) {
      for object in objects { detector.expectDeallocation(of: object) }
    }
    objects = []  // deallocation is the app's cost, not the detector's
    let sweeping = cpuTime(.thread) { scheduler.advance(by: .seconds(1)) }
    precondition(detector.report.pendingExpectations == 0 && detector.report.leaks.isEmpty)
    _ = objects
    return expecting + sweeping
  }

  /// LVCD's mechanism as it runs in an app: `DispatchQueue.main.asyncAfter(
  /// deadline: .now() + delay) { [weak object] … }` for every object, the
  /// objects deallocate, the main run loop runs every block.
  ///
  /// The delay is LVCD's default 1 s, longer at 10^6 so that scheduling ends
  /// before the first block runs (the CPU cost does not depend on it: 1 s and
  /// 3 s measured the same).
  @MainActor
  static func delayedBlockPerObject(_ count: Int) -> Duration {
    let progress = Progress()
    let delay = DispatchTimeInterval.microseconds(1_000_000 + 4 * count)
    var objects = (0..<count).map { _ in Tracked() }
    let scheduling = cpuTime(.process) {
      for object in objects {
        DispatchQueue.main.asyncAfter(deadline: .now() + delay) { [weak object] in
          progress.record(alive: object != nil)
        }
      }
    }
    objects = []
    let running = cpuTime(.process) {
      while progress.finished < count {
        _ = RunLoop.main.run(mode: .default, before: Date(timeIntervalSinceNow: 60))
      }
    }
    precondition(progress.leaks == 0, "a block ran before its object was released")
    _ = objects
    return scheduling + running
  }

  /// The cheapest any per-object block can be: already due, so no timer, on a
  /// suspended serial queue that runs them all once resumed.
  static func dueBlockPerObject(_ count: Int) -> Duration {
    let queue = DispatchQueue(label: "leaklab.bench.per-object")
    let group = DispatchGroup()
    let progress = Progress()
    var objects = (0..<count).map { _ in Tracked() }
    queue.suspend()
    let scheduling = cpuTime(.process) {
      for object in objects {
        group.enter()
        queue.async { [weak object] in
          progress.record(alive: object != nil)
          group.leave()
        }
      }
    }
    objects = []
    let running = cpuTime(.process) {
      queue.resume()
      group.wait()
    }
    precondition(progress.leaks == 0)
    _ = objects
    return scheduling + running
  }

  /// Blocks run one at a time (main queue or a serial queue); the counts are
  /// read after the last one.
  final class Progress: @unchecked Sendable {
    private(set) var finished = 0
    private(set) var leaks = 0

    func record(alive: Bool) {
      finished += 1
      if alive { leaks += 1 }
    }
  }
}
