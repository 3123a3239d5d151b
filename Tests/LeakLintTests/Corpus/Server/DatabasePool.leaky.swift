// swift-format-ignore-file
// Corpus file for LeakLint tests: realistic code, linted, never compiled.
import Foundation

protocol ConnectionPoolDelegate: AnyObject {
  func poolDidExhaust(_ pool: ConnectionPool)
}

final class ConnectionPool {
  var delegate: ConnectionPoolDelegate?  // leak: strong-back-reference
  private var idle: [Int] = Array(0..<8)

  func acquire() -> Int? {
    guard !idle.isEmpty else {
      delegate?.poolDidExhaust(self)
      return nil
    }
    return idle.removeLast()
  }

  func release(_ connection: Int) { idle.append(connection) }
}

final class UserRepository: ConnectionPoolDelegate {
  private let pool: ConnectionPool
  private var exhaustedCount = 0

  init(poolSize: Int) {
    pool = ConnectionPool()
    pool.delegate = self
  }

  func user(id: Int) -> String? {
    guard let connection = pool.acquire() else { return nil }
    defer { pool.release(connection) }
    return "user \(id) via \(connection)"
  }

  func poolDidExhaust(_ pool: ConnectionPool) {
    exhaustedCount += 1
  }
}
