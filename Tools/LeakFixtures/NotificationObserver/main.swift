// An inbox observes its own notification center with a block that captures
// the inbox: Inbox → center → observer → block → closure context → Inbox.
// `fixed` captures weakly.
//
//   NotificationObserver leaky|fixed
import Foundation

final class Inbox: @unchecked Sendable {
  let center = NotificationCenter()
  var token: (any NSObjectProtocol)?
  var received = 0

  @inline(never)
  init(leaky: Bool) {
    let name = Notification.Name("message")
    if leaky {
      token = center.addObserver(forName: name, object: nil, queue: nil) { _ in self.received += 1 }
    } else {
      token = center.addObserver(forName: name, object: nil, queue: nil) { [weak self] _ in
        self?.received += 1
      }
    }
    center.post(name: name, object: nil)
  }
}

@inline(never)
func run(leaky: Bool) -> Int {
  Inbox(leaky: leaky).received
}

let mode = CommandLine.arguments.dropFirst().first ?? "leaky"
guard mode == "leaky" || mode == "fixed" else {
  print("usage: NotificationObserver leaky|fixed")
  exit(2)
}
print("received \(run(leaky: mode == "leaky")) message (\(mode))")
