// swift-format-ignore-file
// Corpus file for LeakLint tests: realistic code, linted, never compiled.
// The closure captures the client and the URL (a capture list), not the dispatcher.
import Foundation

final class HTTPClient {
  func post(_ url: URL, body: Data) async throws -> Int { 200 }
}

final class RetryPolicy {
  private var attempts: [() async throws -> Int] = []

  func register(_ attempt: @escaping () async throws -> Int) {
    attempts.append(attempt)
  }

  func runAll() async {
    for attempt in attempts { _ = try? await attempt() }
  }
}

final class WebhookDispatcher {
  private let client = HTTPClient()
  private let baseURL: URL
  private let retries = RetryPolicy()

  init(baseURL: URL) {
    self.baseURL = baseURL
  }

  func deliver(_ payload: Data, to path: String) {
    retries.register { [client, baseURL] in
      try await client.post(baseURL.appendingPathComponent(path), body: payload)
    }
  }

  func flush() async {
    await retries.runAll()
  }
}
