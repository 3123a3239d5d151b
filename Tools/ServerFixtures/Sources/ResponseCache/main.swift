import FixtureSupport
import Hummingbird
import HummingbirdFixture
import Synchronization

// Middleware that caches every response under a key made from its request
// (the path and the request's number, as a cache keyed by query or session
// would): nothing leaks (the cache is a global), yet the process grows with
// every request. The fixed form evicts all but the ten newest entries.

final class CachedResponse: Sendable {
  static let live = LiveCount("CachedResponse")
  let body: [UInt8]

  init(size: Int) {
    body = [UInt8](repeating: 42, count: size)
    Self.live.created()
  }

  deinit { Self.live.destroyed() }
}

/// The cache: responses by key, and the keys oldest first (for eviction).
struct Cache: ~Copyable {
  var responses: [String: CachedResponse] = [:]
  var keys: [String] = []
}

/// Every response, by request.
let responseCache = Mutex(Cache())

struct CachingMiddleware<Context: RequestContext>: RouterMiddleware {
  let evicts: Bool

  func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response)
    async throws -> Response
  {
    let response = try await next(request, context)
    responseCache.withLock { cache in
      let key = "\(request.uri.path)#\(cache.keys.count)"
      cache.responses[key] = CachedResponse(size: 64 + cache.keys.count % 64)
      cache.keys.append(key)
      if evicts, cache.responses.count > 10 {
        for old in cache.keys.prefix(cache.keys.count - 10) { cache.responses[old] = nil }
      }
    }
    return response
  }
}

let options = FixtureOptions.parse()
FixtureMain.run {
  let router = Router()
  router.add(middleware: CachingMiddleware(evicts: !options.leaky))
  router.get("/") { _, _ -> String in "ok" }
  try await HummingbirdFixture.serve(router, options: options)
  print(CachedResponse.live.line)
}
