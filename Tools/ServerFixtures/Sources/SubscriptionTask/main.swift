import FixtureSupport
import Hummingbird
import HummingbirdFixture

// A subscription keeps a Task that loops over its event stream and delivers
// each event to the subscription: the task's closure holds the subscription,
// the subscription holds the task and the stream, whose storage holds the
// task waiting on it. The stream never finishes, so nothing ever ends the
// loop (the stored-Task shape of many async server leaks). The fixed form
// finishes the stream when the subscription closes: the loop ends, the task
// lets go.

final class Subscription: @unchecked Sendable {
  // @unchecked: its state is touched by its own task and by one request handler.
  static let live = LiveCount("Subscription")
  let events: AsyncStream<String>
  let continuation: AsyncStream<String>.Continuation
  let finishesOnClose: Bool
  var task: Task<Void, Never>?
  var delivered = 0

  init(finishesOnClose: Bool) {
    (events, continuation) = AsyncStream.makeStream(of: String.self)
    self.finishesOnClose = finishesOnClose
    Self.live.created()
  }

  deinit { Self.live.destroyed() }

  func start() {
    task = Task {
      for await event in self.events { self.deliver(event) }
    }
  }

  func deliver(_ event: String) { delivered += 1 }

  func close() {
    if finishesOnClose { continuation.finish() }
  }
}

let options = FixtureOptions.parse()
FixtureMain.run {
  let leaky = options.leaky
  let router = Router()
  router.get("/") { _, _ -> String in
    let subscription = Subscription(finishesOnClose: !leaky)
    subscription.start()
    subscription.close()
    return "ok"
  }
  try await HummingbirdFixture.serve(router, options: options)
  // Let every subscription's task reach its loop (or, fixed, its end).
  while Subscription.live.value > (leaky ? options.requests : 0) { await Task.yield() }
  print(Subscription.live.line)
}
