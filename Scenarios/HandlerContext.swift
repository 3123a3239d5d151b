import ScreenKit

extension Catalogue {
  /// `handler-context`: a connection handler keeps its pipeline context, which keeps the handler.
  public static let handlerContext = Scenario(
    id: "handler-context",
    title: "Server handler keeping its context",
    pattern: "handlerAdded(context:) { self.context = context }, never cleared (a SwiftNIO-style pipeline)",
    actions: [
      ScenarioAction("Accept connection", "A client connects: a channel with a RequestLogHandler."),
      ScenarioAction("Receive request", "The client sends a request; the handler answers it."),
    ],
    whyItLeaks: """
      A pipeline context owns its handler, and this handler stores the context to answer later: a \
      cycle. Closing the connection takes the context out of the pipeline, but the pair keeps each \
      other, so every connection a server ever closed stays in memory.
      """,
    fix: "Clear the stored context when the handler is removed: `self.context = nil` in "
      + "`handlerRemoved(context:)`.",
    code: #"""
      final class RequestLogHandler: ChannelHandler {
        let mode: ScenarioMode
        private var context: ChannelHandlerContext?
        private(set) var requests = 0

        init(mode: ScenarioMode) {
          self.mode = mode
        }

        func handlerAdded(context: ChannelHandlerContext) {
          self.context = context  // kept to write to the client later
        }

        func channelRead(context: ChannelHandlerContext, data: String) {
          requests += 1
          context.write("200 OK (request \(requests))")
        }

        func handlerRemoved(context: ChannelHandlerContext) {
          if mode == .weak {  // leaklab:toggle
            self.context = nil  // leaklab:weak
          }  // leaklab:toggle
        }
      }
      """#,
    script: [.action(0), .action(1)],
    expected: (strong: .leaking("ChannelHandlerContext", "RequestLogHandler"), weak: .clean),
    makeScreen: { mode, _ in ServerScreen(mode: mode) }
  )
}

// MARK: A connection pipeline, after SwiftNIO's shape (simulated: no networking)

/// What a pipeline calls on each handler.
@MainActor
protocol ChannelHandler: AnyObject {
  func handlerAdded(context: ChannelHandlerContext)
  func channelRead(context: ChannelHandlerContext, data: String)
  func handlerRemoved(context: ChannelHandlerContext)
}

/// A handler's place in a pipeline: it owns its handler, as in SwiftNIO.
@MainActor
final class ChannelHandlerContext {
  let handler: any ChannelHandler
  weak var pipeline: ChannelPipeline?

  init(handler: any ChannelHandler, pipeline: ChannelPipeline) {
    self.handler = handler
    self.pipeline = pipeline
  }

  /// Sends `message` to the client.
  func write(_ message: String) {
    pipeline?.channel?.written.append(message)
  }
}

/// The handlers of one connection, in order.
@MainActor
final class ChannelPipeline {
  weak var channel: Channel?
  private(set) var contexts: [ChannelHandlerContext] = []

  func addHandler(_ handler: any ChannelHandler) {
    let context = ChannelHandlerContext(handler: handler, pipeline: self)
    contexts.append(context)
    handler.handlerAdded(context: context)
  }

  func fireChannelRead(_ data: String) {
    for context in contexts { context.handler.channelRead(context: context, data: data) }
  }

  /// Takes every handler out: each is told, then its context leaves the pipeline.
  func removeHandlers() {
    let removed = contexts
    contexts = []
    for context in removed { context.handler.handlerRemoved(context: context) }
  }
}

/// One client connection.
@MainActor
final class Channel {
  let pipeline = ChannelPipeline()
  var written: [String] = []

  init() {
    pipeline.channel = self
  }

  func close() {
    pipeline.removeHandlers()
  }
}

/// The screen: a server console with one connection.
final class ServerScreen: Screen, OwnedPartsProviding {
  let mode: ScenarioMode
  let statusLabel = Label("No connection", identifier: "server.status")
  private(set) var channel: Channel?
  /// What the connection made, which must go when the screen does.
  private weak var context: ChannelHandlerContext?
  private weak var handler: RequestLogHandler?

  init(mode: ScenarioMode) {
    self.mode = mode
    super.init(title: "Server")
  }

  var ownedParts: [AnyObject] { [context as AnyObject?, handler as AnyObject?].compactMap { $0 } }

  override func viewDidLoad() {
    super.viewDidLoad()
    view.addSubview(statusLabel)
    view.addSubview(Button("Accept connection") { [weak self] in self?.accept() })
    view.addSubview(Button("Receive request") { [weak self] in self?.receive() })
  }

  private func accept() {
    channel?.close()
    let channel = Channel()
    let handler = RequestLogHandler(mode: mode)
    channel.pipeline.addHandler(handler)
    self.channel = channel
    self.handler = handler
    context = channel.pipeline.contexts.last
    statusLabel.text = "Connected"
  }

  private func receive() {
    guard let channel else {
      statusLabel.text = "No connection: accept one first"
      return
    }
    channel.pipeline.fireChannelRead("GET /scores")
    statusLabel.text = "Sent: \(channel.written.last ?? "nothing")"
  }

  override func viewDidDisappear() {
    super.viewDidDisappear()
    channel?.close()
    channel = nil
  }
}

// leaklab:code begin
final class RequestLogHandler: ChannelHandler {
  let mode: ScenarioMode
  private var context: ChannelHandlerContext?
  private(set) var requests = 0

  init(mode: ScenarioMode) {
    self.mode = mode
  }

  func handlerAdded(context: ChannelHandlerContext) {
    self.context = context  // kept to write to the client later
  }

  func channelRead(context: ChannelHandlerContext, data: String) {
    requests += 1
    context.write("200 OK (request \(requests))")
  }

  func handlerRemoved(context: ChannelHandlerContext) {
    if mode == .weak {  // leaklab:toggle
      self.context = nil  // leaklab:weak
    }  // leaklab:toggle
  }
}
// leaklab:code end
