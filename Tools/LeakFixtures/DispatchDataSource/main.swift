// A progress reporter owns a Dispatch data source whose event handler
// captures the reporter: Reporter → source → dispatch source (C memory) →
// handler block → closure context → Reporter. `fixed` captures weakly and
// cancels the source.
//
//   DispatchDataSource leaky|fixed
import Dispatch

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

let mode = CommandLine.arguments.dropFirst().first ?? "leaky"
guard mode == "leaky" || mode == "fixed" else {
  print("usage: DispatchDataSource leaky|fixed")
  exit(2)
}
print("reported \(run(leaky: mode == "leaky")) units (\(mode))")
