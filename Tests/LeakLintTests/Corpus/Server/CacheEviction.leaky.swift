// swift-format-ignore-file
// Corpus file for LeakLint tests: realistic code, linted, never compiled.
import Dispatch
import Foundation

final class ResponseCache {
  private var entries: [String: (data: Data, expires: Date)] = [:]
  private let queue = DispatchQueue(label: "cache")
  private let lifetime: TimeInterval

  init(lifetime: TimeInterval) { self.lifetime = lifetime }

  func store(_ data: Data, for key: String) {
    queue.sync { entries[key] = (data, Date().addingTimeInterval(lifetime)) }
    queue.asyncAfter(deadline: .now() + lifetime) {  // leak: delayed-dispatch
      self.evict(key)
    }
  }

  func data(for key: String) -> Data? {
    queue.sync { entries[key].flatMap { $0.expires > Date() ? $0.data : nil } }
  }

  private func evict(_ key: String) {
    entries[key] = nil
  }
}
