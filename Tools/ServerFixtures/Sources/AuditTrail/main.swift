import FixtureSupport
import Hummingbird
import HummingbirdFixture
import Synchronization

// Middleware that keeps one record per request in a global list, for an
// audit nobody reads: nothing leaks (the list is a global), yet the process
// grows with every request. The fixed form keeps the last ten records.

final class AuditRecord: Sendable {
  static let live = LiveCount("AuditRecord")
  let path: String
  let number: Int

  init(path: String, number: Int) {
    self.path = path
    self.number = number
    Self.live.created()
  }

  deinit { Self.live.destroyed() }
}

/// Every request's record, oldest first.
let auditTrail = Mutex<[AuditRecord]>([])

struct AuditMiddleware<Context: RequestContext>: RouterMiddleware {
  let keepsEverything: Bool

  func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response)
    async throws -> Response
  {
    auditTrail.withLock { records in
      records.append(AuditRecord(path: request.uri.path, number: records.count))
      if !keepsEverything, records.count > 10 { records.removeFirst(records.count - 10) }
    }
    return try await next(request, context)
  }
}

let options = FixtureOptions.parse()
FixtureMain.run {
  let router = Router()
  router.add(middleware: AuditMiddleware(keepsEverything: options.leaky))
  router.get("/") { _, _ -> String in "ok" }
  try await HummingbirdFixture.serve(router, options: options)
  print(AuditRecord.live.line)
}
