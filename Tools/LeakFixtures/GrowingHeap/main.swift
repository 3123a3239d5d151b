// A request loop that keeps something of every request without leaking
// anything: all of it stays reachable from a global, so `leaklab leaks`
// reports nothing while the heap grows. `leaklab heap` is judged on it.
//
//   GrowingHeap audit|cache|observers leaky|fixed [--requests N] [--serve]
//
// - audit: one AuditRecord per request in a global list (`auditTrail`);
//   fixed keeps the last ten.
// - cache: one CachedResponse per request in a global dictionary keyed by
//   the request (`responseCache`); fixed evicts all but ten.
// - observers: each request's RequestSession subscribes a closure to a
//   global hub (`eventHub`) and never unsubscribes; fixed unsubscribes at
//   the end of the request.
//
// It handles N requests (20 by default), prints `live TYPE: COUNT` for its
// class (counted in init and deinit) and exits. With --serve it prints
// `ready`, then for each number k read on stdin handles k more requests and
// prints `served TOTAL` and the live count; end of input ends it.
#if canImport(Glibc)
  import Glibc
#endif

/// How many instances of a class are alive, counted in `init` and `deinit`.
final class LiveCount {
  let typeName: String
  var value = 0
  init(_ typeName: String) { self.typeName = typeName }
  var line: String { "live \(typeName): \(value)" }
}

// MARK: audit: a global list

nonisolated(unsafe) let auditRecords = LiveCount("AuditRecord")

final class AuditRecord {
  let path: String
  let number: Int

  init(path: String, number: Int) {
    self.path = path
    self.number = number
    auditRecords.value += 1
  }

  deinit { auditRecords.value -= 1 }
}

/// Every request's record, oldest first.
nonisolated(unsafe) var auditTrail: [AuditRecord] = []

// MARK: cache: a global dictionary keyed by request

nonisolated(unsafe) let cachedResponses = LiveCount("CachedResponse")

final class CachedResponse {
  let body: [UInt8]

  init(size: Int) {
    body = [UInt8](repeating: 42, count: size)
    cachedResponses.value += 1
  }

  deinit { cachedResponses.value -= 1 }
}

/// Responses by request path, never expired in the leaky form.
nonisolated(unsafe) var responseCache: [String: CachedResponse] = [:]
/// The cache's keys, oldest first (for the fixed form's eviction).
nonisolated(unsafe) var cacheOrder: [String] = []

// MARK: observers: a global hub's list

nonisolated(unsafe) let requestSessions = LiveCount("RequestSession")

final class EventHub {
  struct Observer {
    let id: Int
    let handler: (String) -> Void
  }

  private(set) var observers: [Observer] = []
  private var nextID = 0

  func subscribe(_ handler: @escaping (String) -> Void) -> Int {
    nextID += 1
    observers.append(Observer(id: nextID, handler: handler))
    return nextID
  }

  func unsubscribe(_ id: Int) { observers.removeAll { $0.id == id } }

  func publish(_ event: String) { for observer in observers { observer.handler(event) } }
}

final class RequestSession {
  let number: Int
  var events = 0

  init(number: Int) {
    self.number = number
    requestSessions.value += 1
  }

  deinit { requestSessions.value -= 1 }

  func handle(_ event: String) { events += 1 }
}

/// Where sessions hear about configuration changes.
nonisolated(unsafe) let eventHub = EventHub()

// MARK: The loop

enum Pattern: String {
  case audit, cache, observers

  var live: LiveCount {
    switch self {
    case .audit: auditRecords
    case .cache: cachedResponses
    case .observers: requestSessions
    }
  }
}

@inline(never)
func handleRequest(_ number: Int, pattern: Pattern, leaky: Bool) {
  let path = "/items/\(number)?session=\(number &* 2_654_435_761 % 1_000_003)"
  switch pattern {
  case .audit:
    auditTrail.append(AuditRecord(path: path, number: number))
    if !leaky, auditTrail.count > 10 { auditTrail.removeFirst(auditTrail.count - 10) }
  case .cache:
    responseCache[path] = CachedResponse(size: 64 + number % 64)
    cacheOrder.append(path)
    if !leaky, cacheOrder.count > 10 {
      for key in cacheOrder.prefix(cacheOrder.count - 10) { responseCache[key] = nil }
      cacheOrder.removeFirst(cacheOrder.count - 10)
    }
  case .observers:
    let session = RequestSession(number: number)
    let subscription = eventHub.subscribe { event in session.handle(event) }
    eventHub.publish("request \(number)")
    if !leaky { eventHub.unsubscribe(subscription) }
  }
}

func fail(_ message: String) -> Never {
  let line = Array((message + "\n").utf8)
  _ = line.withUnsafeBytes { write(2, $0.baseAddress, $0.count) }
  exit(2)
}

var arguments = CommandLine.arguments.dropFirst()
let usage = "usage: GrowingHeap audit|cache|observers leaky|fixed [--requests N] [--serve]"
guard let pattern = arguments.popFirst().flatMap(Pattern.init(rawValue:)) else { fail(usage) }
guard let form = arguments.popFirst(), form == "leaky" || form == "fixed" else { fail(usage) }
var requests = 20
var serve = false
while let argument = arguments.popFirst() {
  switch argument {
  case "--requests":
    guard let value = arguments.popFirst().flatMap(Int.init), value >= 0 else {
      fail("--requests needs a count")
    }
    requests = value
  case "--serve":
    serve = true
  default:
    fail("unknown argument: \(argument)\n\(usage)")
  }
}

nonisolated(unsafe) var served = 0
func handle(_ count: Int) {
  for _ in 0..<count {
    handleRequest(served, pattern: pattern, leaky: form == "leaky")
    served += 1
  }
}

if serve {
  print("ready")
  fflush(nil)
  while let line = readLine() {
    handle(Int(line.filter { $0 != " " }) ?? 0)
    print("served \(served)")
    print(pattern.live.line)
    fflush(nil)
  }
} else {
  handle(requests)
}
print(pattern.live.line)
