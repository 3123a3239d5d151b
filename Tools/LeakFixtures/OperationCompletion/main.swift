// An export operation's completion block refers to the operation itself:
// BlockOperation → completionBlock → closure context → BlockOperation.
// `fixed` captures the operation unowned.
//
//   OperationCompletion leaky|fixed
import Foundation

final class ReportExporter: @unchecked Sendable {
  let queue = OperationQueue()
  var exported = 0

  @inline(never)
  func export(leaky: Bool) {
    let operation = BlockOperation { [weak self] in self?.exported += 1 }
    let completed = DispatchSemaphore(value: 0)
    if leaky {
      operation.completionBlock = {
        print("export finished: \(operation.isFinished)")
        completed.signal()
      }
    } else {
      operation.completionBlock = { [unowned operation] in
        print("export finished: \(operation.isFinished)")
        completed.signal()
      }
    }
    queue.addOperations([operation], waitUntilFinished: true)
    completed.wait()
  }
}

let mode = CommandLine.arguments.dropFirst().first ?? "leaky"
guard mode == "leaky" || mode == "fixed" else {
  print("usage: OperationCompletion leaky|fixed")
  exit(2)
}
let exporter = ReportExporter()
exporter.export(leaky: mode == "leaky")
print("exported \(exporter.exported) report (\(mode))")
