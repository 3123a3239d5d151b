import FixtureSupport
import Hummingbird
import HummingbirdFixture
import Synchronization

// Each request's session subscribes to a global hub of configuration
// changes and never unsubscribes: the hub's observer list keeps every
// session (no cycle: the hub is a global), and the process grows with
// every request. The fixed form unsubscribes when the request is done.

final class RequestSession: Sendable {
  static let live = LiveCount("RequestSession")
  let path: String
  let changes = Atomic<Int>(0)

  init(path: String) {
    self.path = path
    Self.live.created()
  }

  deinit { Self.live.destroyed() }

  func configurationChanged() { changes.add(1, ordering: .relaxed) }
}

/// Where sessions hear about configuration changes.
final class ConfigurationHub: Sendable {
  struct Observer: Sendable {
    let id: Int
    let changed: @Sendable () -> Void
  }

  private let observers = Mutex<(next: Int, list: [Observer])>((0, []))

  func subscribe(_ changed: @escaping @Sendable () -> Void) -> Int {
    observers.withLock { state in
      state.next += 1
      state.list.append(Observer(id: state.next, changed: changed))
      return state.next
    }
  }

  func unsubscribe(_ id: Int) { observers.withLock { $0.list.removeAll { $0.id == id } } }

  func publish() {
    for observer in observers.withLock({ $0.list }) { observer.changed() }
  }
}

let configurationHub = ConfigurationHub()

let options = FixtureOptions.parse()
FixtureMain.run {
  let unsubscribes = !options.leaky
  let router = Router()
  router.get("/") { request, _ -> String in
    let session = RequestSession(path: request.uri.path)
    let subscription = configurationHub.subscribe { session.configurationChanged() }
    defer { if unsubscribes { configurationHub.unsubscribe(subscription) } }
    return "ok"
  }
  try await HummingbirdFixture.serve(router, options: options)
  print(RequestSession.live.line)
}
