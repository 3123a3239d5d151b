import FixtureSupport
import Hummingbird
import Logging
import NIOCore
import NIOPosix
import ServiceLifecycle

/// Runs a Hummingbird router, sends the requests the options ask for from
/// the loopback client and shuts the application down gracefully. Like most
/// Hummingbird servers it runs on NIO's singleton event loops, whose threads
/// stay parked until the process exits (the SwiftNIO fixtures shut their own
/// loops down instead: both ends of a server's life are covered).
public enum HummingbirdFixture {
  /// Waits until every event loop of `group` has run what the shutdown left
  /// queued on it (twice: a task may queue another): the connections'
  /// teardown is not still in flight on a loop when the fixture exits.
  static func settle(_ group: any EventLoopGroup) async throws {
    for _ in 0..<2 {
      for loop in group.makeIterator() { try await loop.submit {}.get() }
    }
  }

  public static func serve<Context: RequestContext>(_ router: Router<Context>, options: FixtureOptions)
    async throws where Context.Source == ApplicationRequestContextSource
  {
    let port = PortBox()
    let (started, starting) = AsyncStream<Void>.makeStream()
    var logger = Logger(label: "fixture")
    logger.logLevel = .error
    let app = Application(
      router: router,
      configuration: .init(address: .hostname("127.0.0.1", port: 0)),
      onServerRunning: { channel in
        port.set(channel.localAddress?.port ?? 0)
        starting.yield()
        starting.finish()
      },
      logger: logger
    )
    let services = ServiceGroup(configuration: .init(services: [app], logger: logger))
    try await withThrowingTaskGroup(of: Void.self) { tasks in
      tasks.addTask { try await services.run() }
      for await _ in started { break }
      await FixtureMain.driveOffThread(options, port: port.value)
      await services.triggerGracefulShutdown()
      try await tasks.waitForAll()
    }
    try await settle(MultiThreadedEventLoopGroup.singleton)
  }
}
