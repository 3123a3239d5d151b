import FixtureSupport
import NIOCore
import NIOHTTP1
import NIOPosix

// Each request starts a call on a transport; the transport's `onStart`
// callback refers to the call, which holds the transport: "the callback
// references the call which holds the transport which holds the callback
// forming a strong retain cycle and a slow memory leak" (grpc-swift #1570,
// fixed by nil-ing out `onStart` once called). The transport keeps the
// connection's channel, so each leaked cycle holds a channel's whole object
// graph below it. The fixed form clears the callback after calling it.

final class Transport {
  static let live = LiveCount("Transport")
  let channel: any Channel
  let clearsCallback: Bool
  var onStart: (() -> Void)?

  init(channel: any Channel, clearsCallback: Bool) {
    self.channel = channel
    self.clearsCallback = clearsCallback
    Self.live.created()
  }

  deinit { Self.live.destroyed() }

  func start() {
    onStart?()
    if clearsCallback { onStart = nil }
  }
}

final class Call {
  static let live = LiveCount("Call")
  let transport: Transport
  var isStarted = false

  init(transport: Transport) {
    self.transport = transport
    Self.live.created()
    transport.onStart = { self.isStarted = true }
  }

  deinit { Self.live.destroyed() }
}

final class CallHandler: ChannelInboundHandler {
  typealias InboundIn = HTTPServerRequestPart
  typealias OutboundOut = HTTPServerResponsePart

  let leaky: Bool
  init(leaky: Bool) { self.leaky = leaky }

  func channelRead(context: ChannelHandlerContext, data: NIOAny) {
    guard case .end = unwrapInboundIn(data) else { return }
    let call = Call(transport: Transport(channel: context.channel, clearsCallback: !leaky))
    call.transport.start()
    var headers = HTTPHeaders()
    headers.add(name: "content-length", value: "2")
    headers.add(name: "connection", value: "close")
    let status: HTTPResponseStatus = call.isStarted ? .ok : .internalServerError
    context.write(
      wrapOutboundOut(.head(HTTPResponseHead(version: .http1_1, status: status, headers: headers))),
      promise: nil)
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
        try channel.pipeline.syncOperations.addHandler(CallHandler(leaky: leaky))
      }
    }
    .bind(host: "127.0.0.1", port: 0).get()
  await FixtureMain.driveOffThread(options, port: server.localAddress?.port ?? 0)
  try await server.close()
  try await group.shutdownCompletely()
  print(Call.live.line)
  print(Transport.live.line)
}
