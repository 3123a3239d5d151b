// swift-format-ignore-file
// Corpus file for LeakLint tests: realistic code, linted, never compiled.
// The heartbeat is cancelled on every path out of serve().
final class HeartbeatSession {
  private var sent = 0

  func serve() async {
    let heartbeat = Task {
      while true {
        try? await Task.sleep(for: .seconds(5))
        self.sendPing()
      }
    }
    defer { heartbeat.cancel() }
    await readUntilClosed()
  }

  private func readUntilClosed() async {}

  private func sendPing() { sent += 1 }
}
