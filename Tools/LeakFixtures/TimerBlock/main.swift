// A poller keeps a repeating Foundation `Timer` whose block captures the
// poller: Poller → timer → Timer → block → closure context → Poller.
// `fixed` captures weakly and invalidates. Even then Foundation on Linux
// leaks the Timer and its CF timer (Timer.init retains itself into the CF
// timer's context and never releases it): the library leak LeakLab's
// default suppressions set aside.
//
//   TimerBlock leaky|fixed
import Foundation

final class Poller: @unchecked Sendable {
  var timer: Timer?
  var polls = 0

  @inline(never)
  func start(leaky: Bool) {
    if leaky {
      timer = Timer(timeInterval: 3600, repeats: true) { _ in self.polls += 1 }
    } else {
      timer = Timer(timeInterval: 3600, repeats: true) { [weak self] _ in self?.polls += 1 }
    }
    timer?.fire()
  }

  func stop() {
    timer?.invalidate()
    timer = nil
  }
}

@inline(never)
func run(leaky: Bool) -> Int {
  let poller = Poller()
  poller.start(leaky: leaky)
  if !leaky { poller.stop() }
  return poller.polls
}

let mode = CommandLine.arguments.dropFirst().first ?? "leaky"
guard mode == "leaky" || mode == "fixed" else {
  print("usage: TimerBlock leaky|fixed")
  exit(2)
}
print("polled \(run(leaky: mode == "leaky")) times (\(mode))")
