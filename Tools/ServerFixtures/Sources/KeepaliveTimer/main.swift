import FixtureSupport
import NIOCore
import NIOHTTP1
import NIOPosix

// A connection's keepalive handler owns a timer object; the timer calls back
// into the handler through a small view it keeps (the shape of
// grpc-swift-nio-transport's `Timer<KeepaliveTimerHandlerView>` beside its
// `ServerConnectionManagementHandler`, both reported leaking per connection
// in grpc-swift-nio-transport #84). While the ping is scheduled the event
// loop holds the timer; once the loop lets go (the task fires or is
// cancelled at shutdown), the handler and its timer keep each other. The
// fixed form cancels the timer and drops its view when the handler is removed.

protocol TimerHandler {
  func timerFired()
}

/// A one-shot timer on an event loop, re-armed by whoever it calls back.
final class PingTimer<Handler: TimerHandler> {
  static var live: LiveCount { pingTimers }
  var handler: Handler?
  let delay: TimeAmount
  var scheduled: Scheduled<Void>?

  init(handler: Handler, delay: TimeAmount) {
    self.handler = handler
    self.delay = delay
    Self.live.created()
  }

  deinit { Self.live.destroyed() }

  func schedule(on loop: any EventLoop) {
    let timer = NIOLoopBound(self, eventLoop: loop)
    scheduled = loop.scheduleTask(in: delay) { timer.value.handler?.timerFired() }
  }

  func cancel() {
    scheduled?.cancel()
    scheduled = nil
  }
}

let pingTimers = LiveCount("PingTimer")

/// What the timer holds of the handler.
struct KeepaliveTimerView: TimerHandler {
  let handler: KeepaliveHandler
  func timerFired() { handler.pingsSent += 1 }
}

final class KeepaliveHandler: ChannelInboundHandler {
  typealias InboundIn = HTTPServerRequestPart
  typealias OutboundOut = HTTPServerResponsePart

  static let live = LiveCount("KeepaliveHandler")

  let cancelsOnRemoval: Bool
  var pingTimer: PingTimer<KeepaliveTimerView>?
  var pingsSent = 0

  init(cancelsOnRemoval: Bool) {
    self.cancelsOnRemoval = cancelsOnRemoval
    Self.live.created()
  }

  deinit { Self.live.destroyed() }

  func handlerAdded(context: ChannelHandlerContext) {
    let timer = PingTimer(handler: KeepaliveTimerView(handler: self), delay: .seconds(30))
    timer.schedule(on: context.eventLoop)
    pingTimer = timer
  }

  func handlerRemoved(context: ChannelHandlerContext) {
    guard cancelsOnRemoval else { return }
    pingTimer?.cancel()
    pingTimer?.handler = nil
    pingTimer = nil
  }

  func channelRead(context: ChannelHandlerContext, data: NIOAny) {
    guard case .end = unwrapInboundIn(data) else { return }
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
        try channel.pipeline.syncOperations.addHandler(KeepaliveHandler(cancelsOnRemoval: !leaky))
      }
    }
    .bind(host: "127.0.0.1", port: 0).get()
  await FixtureMain.driveOffThread(options, port: server.localAddress?.port ?? 0)
  try await server.close()
  try await group.shutdownCompletely()
  print(KeepaliveHandler.live.line)
  print(pingTimers.line)
}
