import Foundation
import LeakLabLocking
import StepScripts

/// Runs step scripts against the real app side by side: each script in its
/// own copy of the app in its own private tmux server, `jobs` at a time.
///
/// A terminal script spends most of its time waiting (real `wait`s, the grace
/// delay, the screen settling), so running several at once costs little CPU
/// and divides the wall time. Results come back in script order; `report`
/// sees each one, in script order, as soon as it and every script before it
/// have finished.
///
/// ```swift
/// let results = TerminalScriptRunner.run(scripts, executable: leaklab, scenarioIDs: ids, jobs: 6) {
///   print(StepReport.lines(for: $0).joined(separator: "\n"))
/// }
/// ```
public enum TerminalScriptRunner {
  /// What running one script gave: its result, or the error that stopped it
  /// (input the driver rejected, such as an unknown scenario id).
  public typealias Outcome = Result<ScriptResult, StepScriptError>

  /// Runs `scripts`, at most `jobs` at once; returns one outcome per script, in order.
  public static func run(
    _ scripts: [StepScript], executable: String, scenarioIDs: [String], jobs: Int,
    report: @escaping @Sendable (Outcome) -> Void = { _ in }
  ) -> [Outcome] {
    let state = Locked(Progress(count: scripts.count))
    let slots = DispatchSemaphore(value: max(1, jobs))
    let group = DispatchGroup()
    for (index, script) in scripts.enumerated() {
      slots.wait()
      group.enter()
      let thread = Thread {
        let outcome = runOne(script, executable: executable, scenarioIDs: scenarioIDs)
        let ready = state.withLock { $0.finish(index, with: outcome) }
        ready.forEach(report)
        slots.signal()
        group.leave()
      }
      thread.start()
    }
    group.wait()
    return state.withLock { $0.outcomes.map { $0! } }
  }

  /// Runs one script in a fresh app; a driver that cannot start is a failed script.
  public static func runOne(_ script: StepScript, executable: String, scenarioIDs: [String]) -> Outcome {
    let driver: TerminalStepDriver
    do {
      driver = try TerminalStepDriver(executable: executable, scenarioIDs: scenarioIDs)
    } catch {
      let failure = StepFailure(
        step: script.steps.first ?? Step(line: 1, text: "", command: .alwaysClean),
        expected: nil, actual: nil, message: error.description)
      return .success(ScriptResult(script: script, records: [], failure: failure))
    }
    defer { driver.quit() }
    do {
      return .success(try StepRunner.run(script, on: driver))
    } catch {
      return .failure(error)
    }
  }

  /// The outcomes so far, and which have been reported.
  private struct Progress {
    var outcomes: [Outcome?]
    var reported = 0

    init(count: Int) {
      outcomes = Array(repeating: nil, count: count)
    }

    /// Records `outcome`; returns the outcomes now ready to report, in order.
    mutating func finish(_ index: Int, with outcome: Outcome) -> [Outcome] {
      outcomes[index] = outcome
      var ready: [Outcome] = []
      while reported < outcomes.count, let next = outcomes[reported] {
        ready.append(next)
        reported += 1
      }
      return ready
    }
  }
}
