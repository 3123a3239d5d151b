// An export operation whose block checks the operation's own cancellation
// captures the operation: BlockOperation → executionBlocks → closure context
// → BlockOperation. `fixed` captures it unowned.
//
// The operation runs on the main thread (`start()`): work left in flight on
// a Dispatch worker when the program exits would still be reachable from that
// worker's stack, and the check at exit would depend on timing.
//
//   OperationCompletion leaky|fixed
import Foundation

final class ReportExporter: @unchecked Sendable {
  var exported = 0

  @inline(never)
  func export(leaky: Bool) {
    let operation = BlockOperation()
    if leaky {
      operation.addExecutionBlock {
        guard !operation.isCancelled else { return }
        self.exported += 1
      }
    } else {
      operation.addExecutionBlock { [unowned operation, unowned self] in
        guard !operation.isCancelled else { return }
        self.exported += 1
      }
    }
    operation.start()
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
