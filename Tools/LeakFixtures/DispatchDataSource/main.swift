// A progress reporter owns a Dispatch data source whose event handler
// captures the reporter: Reporter → source → dispatch source (C memory) →
// handler block → closure context → Reporter. `fixed` captures weakly and
// cancels the source.
//
// Before it exits it lets Dispatch's workers go idle, as a server does at
// shutdown: a worker still returning from the handler holds the reporter on
// its stack, and a check at exit would depend on timing.
//
//   DispatchDataSource leaky|fixed
import Dispatch
import Foundation

#if canImport(Glibc)
  import Glibc
#endif

final class ProgressReporter {
  let queue = DispatchQueue(label: "progress")
  let source: any DispatchSourceUserDataAdd
  var total = 0

  @inline(never)
  init(leaky: Bool) {
    source = DispatchSource.makeUserDataAddSource(queue: queue)
    if leaky {
      source.setEventHandler { self.total += Int(self.source.data) }
    } else {
      source.setEventHandler { [weak self] in
        guard let self else { return }
        self.total += Int(self.source.data)
      }
    }
    source.activate()
    source.add(data: 3)
    queue.sync {}
  }

  func stop() { source.cancel() }
}

@inline(never)
func run(leaky: Bool) -> Int {
  let reporter = ProgressReporter(leaky: leaky)
  reporter.queue.sync {}
  if !leaky { reporter.stop() }
  return reporter.total
}

/// Waits (yielding, at most about a second) until no other thread of this
/// process is running: every Dispatch worker is parked. Call on the main thread.
func waitUntilOtherThreadsSleep() {
  let own = String(getpid())  // called on the main thread, whose id is the process id
  for _ in 0..<100_000 {
    guard let threads = try? FileManager.default.contentsOfDirectory(atPath: "/proc/self/task") else {
      return
    }
    let running = threads.contains { thread in
      guard thread != own,
        let stat = try? String(contentsOfFile: "/proc/self/task/\(thread)/stat", encoding: .utf8),
        let end = stat.lastIndex(of: ")")
      else { return false }
      return stat[stat.index(end, offsetBy: 2)] == "R"
    }
    if !running { return }
    sched_yield()
  }
}

let mode = CommandLine.arguments.dropFirst().first ?? "leaky"
guard mode == "leaky" || mode == "fixed" else {
  print("usage: DispatchDataSource leaky|fixed")
  exit(2)
}
let total = run(leaky: mode == "leaky")
waitUntilOtherThreadsSleep()
print("reported \(total) units (\(mode))")
