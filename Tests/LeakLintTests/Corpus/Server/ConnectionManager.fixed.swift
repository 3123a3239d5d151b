// swift-format-ignore-file
// Corpus file for LeakLint tests: realistic code, linted, never compiled.
import Foundation

final class Connection {
  let id: UUID
  var onMessage: ((String) -> Void)?
  var onClose: (() -> Void)?

  init(id: UUID) { self.id = id }

  func receive(_ text: String) { onMessage?(text) }
  func close() { onClose?() }
}

final class ConnectionManager {
  private var connections: [UUID: Connection] = [:]
  private let lock = NSLock()

  func accept(id: UUID) {
    let connection = Connection(id: id)
    connection.onMessage = { [weak self] text in
      self?.broadcast(text, from: id)
    }
    connection.onClose = { [weak self] in
      self?.remove(id)
    }
    lock.withLock { connections[id] = connection }
  }

  func broadcast(_ text: String, from sender: UUID) {
    let targets = lock.withLock { connections.values.filter { $0.id != sender } }
    targets.forEach { $0.receive(text) }
  }

  private func remove(_ id: UUID) {
    _ = lock.withLock { connections.removeValue(forKey: id) }
  }
}
