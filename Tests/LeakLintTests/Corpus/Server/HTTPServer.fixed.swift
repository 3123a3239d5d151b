// swift-format-ignore-file
// Corpus file for LeakLint tests: realistic code, linted, never compiled.
import Foundation

struct Request {
  let path: String
  let body: Data
}

struct Response {
  var status: Int
  var body: String
}

final class Router {
  typealias Handler = (Request) -> Response
  private var routes: [String: Handler] = [:]

  func register(_ path: String, handler: @escaping Handler) {
    routes[path] = handler
  }

  func handle(_ request: Request) -> Response {
    routes[request.path]?(request) ?? Response(status: 404, body: "not found")
  }
}

final class HTTPServer {
  private let router = Router()
  private var requestCount = 0
  private let startedAt = Date()

  init() {
    router.register("/health") { [unowned self] in self.health($0) }
    router.register("/stats") { [weak self] _ in
      Response(status: 200, body: "\(self?.requestCount ?? 0) requests")
    }
    router.register("/version") { _ in Response(status: 200, body: "1.0") }
  }

  func serve(_ request: Request) -> Response {
    requestCount += 1
    return router.handle(request)
  }

  private func health(_ request: Request) -> Response {
    Response(status: 200, body: "up \(Int(Date().timeIntervalSince(startedAt))) s")
  }
}
