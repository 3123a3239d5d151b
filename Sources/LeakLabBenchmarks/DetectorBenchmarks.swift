import Dispatch
import LeakClock
import LeakDetector

/// Detector cost per object: `expectDeallocation` plus one sweep, against the
/// mechanism LeakedViewControllerDetector and MLeaksFinder use — one delayed
/// dispatch block per object, capturing it weakly.
enum DetectorBenchmarks {
  final class Tracked: @unchecked Sendable {}

  @MainActor
  static func run() {
    var rows: [[String]] = []
    for exponent in 3...6 {
      let count = Int(pow10(exponent))
      let repetitions = exponent == 6 ? 3 : 5
      let sweep = median(repetitions: repetitions) { detectorExpectAndSweep(count) }
      let dispatch = median(repetitions: repetitions) { dispatchBlockPerObject(count) }
      rows.append([
        "10^\(exponent)", nanosecondsPerItem(sweep, count), nanosecondsPerItem(dispatch, count),
        ratio(dispatch, sweep),
      ])
    }
    printTable(
      title: "LeakDetector: expect + sweep, ns per object (median)",
      header: ["open expectations", "detector sweep", "dispatch block per object", "ratio"],
      rows: rows)
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
    let expecting = ContinuousClock().measure {
      for object in objects { detector.expectDeallocation(of: object) }
    }
    objects = []  // deallocation is the app's cost, not the detector's
    let sweeping = ContinuousClock().measure { scheduler.advance(by: .seconds(1)) }
    precondition(detector.report.pendingExpectations == 0 && detector.report.leaks.isEmpty)
    _ = objects
    return expecting + sweeping
  }

  /// Schedules one block per object on a suspended queue, lets the objects
  /// deallocate, then resumes the queue and waits for every block.
  static func dispatchBlockPerObject(_ count: Int) -> Duration {
    let queue = DispatchQueue(label: "leaklab.bench.per-object")
    let group = DispatchGroup()
    let leaks = Counter()
    var objects = (0..<count).map { _ in Tracked() }
    queue.suspend()
    let scheduling = ContinuousClock().measure {
      for object in objects {
        group.enter()
        queue.asyncAfter(deadline: .now()) { [weak object] in
          if object != nil { leaks.value += 1 }
          group.leave()
        }
      }
    }
    objects = []
    let running = ContinuousClock().measure {
      queue.resume()
      group.wait()
    }
    precondition(leaks.value == 0)
    _ = objects
    return scheduling + running
  }

  final class Counter: @unchecked Sendable {
    var value = 0
  }
}
