// swift-format-ignore-file
// Corpus file for LeakLint tests: realistic code, linted, never compiled.
// A heartbeat task that loops for ever and keeps the session.
final class HeartbeatSession {
  private var sent = 0
  private var heartbeat: Task<Void, Never>?

  func serve() async {
    heartbeat = Task {  // leak: task-loop
      while true {
        try? await Task.sleep(for: .seconds(5))
        self.sendPing()
      }
    }
    await readUntilClosed()
  }

  private func readUntilClosed() async {}

  private func sendPing() { sent += 1 }
}
