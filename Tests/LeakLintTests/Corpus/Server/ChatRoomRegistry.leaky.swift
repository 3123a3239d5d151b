// swift-format-ignore-file
// Corpus file for LeakLint tests: realistic code, linted, never compiled.
// A chat server keeps every live WebSocket session in a static registry, for
// broadcasts and the admin page; the session takes itself out in deinit, which
// never runs while the registry keeps it.
import Foundation
import NIOConcurrencyHelpers

enum SessionRegistry {
  private static let lock = NIOLock()
  private static var sessions: [UUID: ChatSession] = [:]

  static func add(_ session: ChatSession) {
    lock.withLock { sessions[session.id] = session }
  }

  static func remove(_ session: ChatSession) {
    _ = lock.withLock { sessions.removeValue(forKey: session.id) }
  }

  static var count: Int { lock.withLock { sessions.count } }

  static func broadcast(_ text: String, from sender: UUID) {
    let targets = lock.withLock { sessions.values.filter { $0.id != sender } }
    for session in targets { session.send(text) }
  }
}

/// A rate limiter per user, made once and reused for every connection of that user.
final class RateLimiter {
  private static var byUser: [String: RateLimiter] = [:]
  private var tokens = 10

  static func forUser(_ user: String) -> RateLimiter {
    if let known = byUser[user] { return known }
    let limiter = RateLimiter()
    byUser[user] = limiter
    return limiter
  }

  func allow() -> Bool {
    guard tokens > 0 else { return false }
    tokens -= 1
    return true
  }
}

final class ChatSession {
  let id = UUID()
  let user: String
  private let limiter: RateLimiter
  private var outbox: [String] = []
  private var isOpen = false

  init(user: String) {
    self.user = user
    self.limiter = RateLimiter.forUser(user)
  }

  func start() {
    isOpen = true
    SessionRegistry.add(self)
  }

  func receive(_ text: String) {
    guard isOpen, limiter.allow() else { return }
    SessionRegistry.broadcast("\(user): \(text)", from: id)
  }

  func send(_ text: String) { outbox.append(text) }

  func close() {
    isOpen = false
    outbox.removeAll()
  }

  deinit {
    SessionRegistry.remove(self)  // leak: global-registration
  }
}
