// Leaks made at known lines, for `leaklab leaks --stacks`: each leaked
// object keeps itself alive (a cycle), and the line that allocated it is
// marked `// site: NAME`. The tests read the marks and expect the report
// to name each line.
//
//   AllocationSites leaky|fixed
//
// `fixed` makes the same objects and breaks each cycle before it returns.
import Dispatch
import Foundation

#if canImport(Glibc)
  import Glibc
#endif

/// Made through its initializer.
final class Session {
  var peer: Session?
}

/// Made by a factory function.
final class Cache {
  var owner: Cache?
  var entries: [Int] = [1, 2, 3]
}

/// Keeps a closure that captures it: the closure's context is made where the closure is written.
final class Listener {
  var onEvent: (() -> Void)?
  var events = 0
}

/// Made inside a Task.
final class Job {
  var again: Job?
}

@inline(never)
func makeCache() -> Cache {
  Cache()  // site: factory
}

@inline(never)
func leakSession(leaky: Bool) {
  let session = Session()  // site: initializer
  session.peer = session
  if !leaky { session.peer = nil }
}

@inline(never)
func leakCache(leaky: Bool) {
  let cache = makeCache()  // site: factory caller
  cache.owner = cache
  if !leaky { cache.owner = nil }
}

@inline(never)
func leakListener(leaky: Bool) {
  let listener = Listener()  // site: listener
  let step = 2
  listener.onEvent = { listener.events += step }  // site: closure
  listener.onEvent?()
  if !leaky { listener.onEvent = nil }
}

@inline(never)
func leakJob(leaky: Bool) {
  let done = DispatchSemaphore(value: 0)
  Task.detached {
    let job = Job()  // site: task
    job.again = job
    if !leaky { job.again = nil }
    done.signal()
  }
  done.wait()
}

/// Waits (yielding, at most about a second) until no other thread is
/// running: the worker that ran the Task holds nothing on a live frame.
func waitUntilOtherThreadsSleep() {
  let own = String(getpid())  // the main thread's id is the process id
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
  print("usage: AllocationSites leaky|fixed")
  exit(2)
}
let leaky = mode == "leaky"
leakSession(leaky: leaky)
leakCache(leaky: leaky)
leakListener(leaky: leaky)
leakJob(leaky: leaky)
waitUntilOtherThreadsSleep()
print("made 4 leaks (\(mode))")
