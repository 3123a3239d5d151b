// An uploader keeps the work item it runs, and the work item's block
// captures the uploader: Uploader → pending → DispatchWorkItem → dispatch
// block (C memory) → closure context → Uploader. `fixed` captures weakly.
//
//   DispatchWorkItemCycle leaky|fixed
import Dispatch

#if canImport(Glibc)
  import Glibc
#endif

final class Uploader {
  var pending: DispatchWorkItem?
  var uploads = 0

  @inline(never)
  func upload(leaky: Bool) {
    if leaky {
      pending = DispatchWorkItem { self.uploads += 1 }
    } else {
      pending = DispatchWorkItem { [weak self] in self?.uploads += 1 }
    }
    DispatchQueue.global().sync(execute: pending!)
  }
}

@inline(never)
func run(leaky: Bool) -> Int {
  let uploader = Uploader()
  uploader.upload(leaky: leaky)
  return uploader.uploads
}

let mode = CommandLine.arguments.dropFirst().first ?? "leaky"
guard mode == "leaky" || mode == "fixed" else {
  print("usage: DispatchWorkItemCycle leaky|fixed")
  exit(2)
}
print("uploaded \(run(leaky: mode == "leaky")) file (\(mode))")
