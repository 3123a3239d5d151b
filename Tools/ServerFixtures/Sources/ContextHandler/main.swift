import FixtureSupport
import NIOCore
import NIOHTTP1
import NIOPosix

// A connection handler that keeps the ChannelHandlerContext it was added
// with, to write to it later: the context holds the handler, the handler
// holds the context, and neither goes when the connection closes.
// Reported and fixed in Kitura-WebSocket-NIO (#33: "WebSocketConnection holds
// a strong reference to the ChannelHandlerContext") and vapor/core (#134,
// QueueHandler's waitingCtx). The fixed form lets go of the context in
// handlerRemoved, as NIO's own handlers do.

final class SessionHandler: ChannelInboundHandler {
  typealias InboundIn = HTTPServerRequestPart
  typealias OutboundOut = HTTPServerResponsePart

  static let live = LiveCount("SessionHandler")

  let keepsContext: Bool
  /// Where responses are written: kept from handlerAdded.
  var context: ChannelHandlerContext?
  var requestsSeen = 0

  init(keepsContext: Bool) {
    self.keepsContext = keepsContext
    Self.live.created()
  }

  deinit { Self.live.destroyed() }

  func handlerAdded(context: ChannelHandlerContext) {
    self.context = context
  }

  func handlerRemoved(context: ChannelHandlerContext) {
    if !keepsContext { self.context = nil }
  }

  func channelRead(context: ChannelHandlerContext, data: NIOAny) {
    guard case .end = unwrapInboundIn(data) else { return }
    requestsSeen += 1
    respond()
  }

  private func respond() {
    guard let context else { return }
    var headers = HTTPHeaders()
    headers.add(name: "content-length", value: "2")
    headers.add(name: "connection", value: "close")
    context.write(
      wrapOutboundOut(.head(HTTPResponseHead(version: .http1_1, status: .ok, headers: headers))), promise: nil
    )
    context.write(
      wrapOutboundOut(.body(.byteBuffer(context.channel.allocator.buffer(string: "ok")))), promise: nil)
    let bound = NIOLoopBound(context, eventLoop: context.eventLoop)
    context.writeAndFlush(wrapOutboundOut(.end(nil))).whenComplete { _ in bound.value.close(promise: nil) }
  }
}

let options = FixtureOptions.parse()
FixtureMain.run {
  let group = MultiThreadedEventLoopGroup(numberOfThreads: 2)
  let leaky = options.leaky
  let server = try await ServerBootstrap(group: group)
    .serverChannelOption(.socketOption(.so_reuseaddr), value: 1)
    .childChannelInitializer { channel in
      channel.eventLoop.makeCompletedFuture {
        try channel.pipeline.syncOperations.configureHTTPServerPipeline()
        try channel.pipeline.syncOperations.addHandler(SessionHandler(keepsContext: leaky))
      }
    }
    .bind(host: "127.0.0.1", port: 0).get()
  let port = server.localAddress?.port ?? 0
  await FixtureMain.driveOffThread(options, port: port)
  try await server.close()
  try await group.shutdownCompletely()
  print(SessionHandler.live.line)
}
