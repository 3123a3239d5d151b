import FixtureSupport
import Hummingbird
import HummingbirdFixture

// A WebSocket-style connection object whose callbacks are stored on it and
// capture it: `socket.onText = { text in socket.send(…) }`. The socket holds
// the closures, the closures hold the socket: a cycle per connection once the
// request is done (the shape of Kitura-WebSocket-NIO's and many WebSocket
// wrappers' leaks). The fixed form clears the callbacks when the socket closes.

final class Socket: @unchecked Sendable {
  // @unchecked: used by one request handler at a time.
  static let live = LiveCount("Socket")
  let clearsCallbacksOnClose: Bool
  var onText: ((String) -> Void)?
  var onClose: (() -> Void)?
  var outbox: [String] = []

  init(clearsCallbacksOnClose: Bool) {
    self.clearsCallbacksOnClose = clearsCallbacksOnClose
    Self.live.created()
  }

  deinit { Self.live.destroyed() }

  func send(_ text: String) { outbox.append(text) }
  func receive(_ text: String) { onText?(text) }

  func close() {
    onClose?()
    if clearsCallbacksOnClose {
      onText = nil
      onClose = nil
    }
  }
}

let options = FixtureOptions.parse()
FixtureMain.run {
  let leaky = options.leaky
  let router = Router()
  router.get("/") { _, _ -> String in
    let socket = Socket(clearsCallbacksOnClose: !leaky)
    socket.onText = { text in socket.send("echo: \(text)") }
    socket.onClose = { socket.send("bye") }
    socket.receive("hello")
    socket.close()
    return "ok"
  }
  try await HummingbirdFixture.serve(router, options: options)
  print(Socket.live.line)
}
