// `LeakLabProbe ID --mode strong|weak --until grace|end`: what `leaklab
// oracle` runs under valgrind memcheck.
//
// It runs the scenario as `leaklab check` does (a manual clock, the script,
// the close, one grace delay, or the whole observation time), prints the
// detector's claim as one JSON line, then lets go of everything LeakLab holds
// (the detector, the window, the navigation stack) and exits. What stays is
// what the app's world holds — the notification center and the main queue's
// pending work, kept in a global as a real app's are — and whatever the
// scenario leaked. Memcheck judges that at exit.
//
// Swift code only, and no retain-path explainer: valgrind 3.19 gives up on
// the DWARF 5 debug info clang writes for LeakLab's C targets.
import Foundation
import LeakClock
import MemcheckOracle
import Scenarios

/// What the scenario's world holds after the run: the process-wide roots.
nonisolated(unsafe) var worldRoots: [AnyObject] = []

@MainActor
func probe(_ scenario: Scenario, mode: ScenarioMode, until moment: ScenarioRunner.Moment) async
  -> DetectorClaim
{
  let scheduler = ManualScheduler()
  let harness = ScenarioHarness(scheduler: scheduler)
  await ScenarioRunner.drive(scenario, mode: mode, on: harness, scheduler: scheduler, until: moment)
  worldRoots = [harness.environment.notificationCenter, scheduler]
  let report = harness.detector.report
  let claim = DetectorClaim(
    label: report.summaryLabel,
    leaks: report.leaks.map { DetectorClaim.Leak(typeName: $0.typeName, path: nil, isOpen: $0.isOpen) })
  // The main actor's queued jobs take their turn before the exit (a task the
  // close cancelled ends): no work of the scenario's is in flight at exit.
  await ScenarioRunner.settle(scheduler)
  return claim
}

func fail(_ message: String) -> Never {
  FileHandle.standardError.write(Data("LeakLabProbe: \(message)\n".utf8))
  exit(2)
}

var arguments = CommandLine.arguments.dropFirst()
guard let id = arguments.popFirst(), let scenario = Catalogue.scenario(id: id) else {
  fail("usage: LeakLabProbe ID [--mode strong|weak] [--until grace|end] (a known scenario id)")
}
var mode = ScenarioMode.strong
var moment = ScenarioRunner.Moment.grace
while let option = arguments.popFirst() {
  let value = arguments.popFirst() ?? ""
  switch option {
  case "--mode": mode = ScenarioMode(rawValue: value) ?? { fail("unknown mode \"\(value)\"") }()
  case "--until": moment = ScenarioRunner.Moment(rawValue: value) ?? { fail("unknown moment \"\(value)\"") }()
  default: fail("unknown option \"\(option)\"")
  }
}

// Async work on the main actor, driven by the main run loop: the async main's
// exit path (dispatch's signal thread) crashes valgrind 3.19.
let claim = MainRunLoop.run { await probe(scenario, mode: mode, until: moment) }
print(String(decoding: try JSONEncoder().encode(claim), as: UTF8.self))
