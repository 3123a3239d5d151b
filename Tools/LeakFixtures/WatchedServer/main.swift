// A server `leaklab watch` is tested on: it waits, and each SIGUSR1 is a
// request. Every request keeps a `SessionRecord` in a global list
// (`sessionLog`: grows, nothing leaks) and leaks a `Connection ⇄
// RequestHandler` retain cycle. SIGUSR2 ends it with exit status 3.
//
//   WatchedServer [--requests N]   (N requests at the start, 0 by default)
//
// It prints `ready PID` at the start and `served TOTAL` after each request.
#if canImport(Glibc)
  import Glibc
#endif

final class SessionRecord {
  let number: Int
  let path: String

  init(number: Int) {
    self.number = number
    path = "/feed/\(number)"
  }
}

/// Every request's record, oldest first: why `SessionRecord` grows.
nonisolated(unsafe) var sessionLog: [SessionRecord] = []

final class Connection {
  let number: Int
  var handler: RequestHandler?
  init(number: Int) { self.number = number }
}

final class RequestHandler {
  var connection: Connection?
}

/// One request: a record kept for good, a connection and its handler that keep each other alive.
func serve(_ number: Int) {
  sessionLog.append(SessionRecord(number: number))
  let connection = Connection(number: number)
  let handler = RequestHandler()
  connection.handler = handler
  handler.connection = connection
}

nonisolated(unsafe) var requested: sig_atomic_t = 0
nonisolated(unsafe) var stopRequested: sig_atomic_t = 0

signal(SIGUSR1) { _ in requested += 1 }
signal(SIGUSR2) { _ in stopRequested = 1 }

var served = 0
var initial = 0
if let index = CommandLine.arguments.firstIndex(of: "--requests"), index + 1 < CommandLine.arguments.count {
  initial = Int(CommandLine.arguments[index + 1]) ?? 0
}
for _ in 0..<initial {
  served += 1
  serve(served)
}
print("ready \(getpid())")
fflush(nil)
var handled: sig_atomic_t = 0
while stopRequested == 0 {
  while handled < requested {
    handled += 1
    served += 1
    serve(served)
    print("served \(served)")
    fflush(nil)
  }
  usleep(5_000)
}
exit(3)
