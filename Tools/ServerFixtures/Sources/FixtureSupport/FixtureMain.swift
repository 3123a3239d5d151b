import Dispatch

#if canImport(Glibc)
  import Glibc
#endif

/// The synchronous frame every fixture runs in: valgrind 3.19 cannot run a
/// program whose `main` is async (it parks in `dispatch_main`), so `main`
/// starts the async work and waits for it on a semaphore.
public enum FixtureMain {
  /// Runs `body` to its end and exits with status 0, or 1 with its error on stderr.
  public static func run(_ body: @escaping @Sendable () async throws -> Void) -> Never {
    let done = DispatchSemaphore(value: 0)
    let failure = FailureBox()
    Task {
      do {
        try await body()
      } catch {
        failure.set("\(error)")
      }
      done.signal()
    }
    done.wait()
    if let message = failure.message {
      writeError("fixture failed: \(message)")
      exit(1)
    }
    exit(0)
  }

  /// Sends the requests `options` asks for to the server on `port`: all of
  /// them at once, or (with `--serve`) in batches read from stdin. Returns
  /// when the requests are done: the caller then shuts the server down.
  public static func drive(_ options: FixtureOptions, port: Int, path: String = "/") {
    var served = 0
    func send(_ count: Int) {
      for _ in 0..<count where LoopbackClient.get(path, port: port) == 200 { served += 1 }
    }
    guard options.serve else {
      send(options.requests)
      print("served \(served)")
      return
    }
    print("ready")
    fflush(nil)
    while let line = readLine() {
      send(Int(line.trimmingCharacters(in: " ")) ?? 0)
      print("served \(served)")
      fflush(nil)
    }
  }
}

/// The error message of the fixture's body, set once from its task.
private final class FailureBox: @unchecked Sendable {
  // @unchecked: written once by the task before the semaphore is signalled, read after.
  var message: String?
  func set(_ text: String) { message = text }
}

extension String {
  func trimmingCharacters(in set: Character) -> String {
    String(drop { $0 == set }.reversed().drop { $0 == set }.reversed())
  }
}

extension FixtureMain {
  /// ``drive(_:port:path:)`` on a thread of its own, so that the blocking
  /// client never holds one of the cooperative pool's few threads. The
  /// thread is joined before this returns: nothing of the client is still
  /// in flight when the fixture goes on (a leak check at exit sees one state).
  public static func driveOffThread(_ options: FixtureOptions, port: Int, path: String = "/") async {
    let thread = ClientThread { drive(options, port: port, path: path) }
    await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
      thread.start { continuation.resume() }
    }
    thread.join()
  }
}

/// A pthread running one closure, then calling back; joined by its owner.
private final class ClientThread: @unchecked Sendable {
  // @unchecked: `body` and `done` are set before the thread starts and read on it once.
  let body: @Sendable () -> Void
  var done: (@Sendable () -> Void)?
  var thread = pthread_t()

  init(_ body: @escaping @Sendable () -> Void) { self.body = body }

  func start(then done: @escaping @Sendable () -> Void) {
    self.done = done
    let box = Unmanaged.passRetained(self).toOpaque()
    pthread_create(
      &thread, nil,
      { raw in
        let me = Unmanaged<ClientThread>.fromOpaque(raw!).takeRetainedValue()
        me.body()
        let done = me.done
        me.done = nil
        done?()
        return nil
      }, box)
  }

  func join() { pthread_join(thread, nil) }
}
