// swift-tools-version:6.1
import PackageDescription

// Servers `leaklab leaks` and `leaklab heap` are judged on, beside valgrind
// memcheck: SwiftNIO and Hummingbird programs modelled on leaks reported and
// fixed in public server packages. Each runs `leaky` (one leak per request) or
// `fixed` (none), answers N requests from its own loopback client, shuts down
// and exits. A package of its own, so that the main package's builds
// (debug, sanitizers, fuzzers) never build SwiftNIO or Hummingbird.
let package = Package(
  name: "ServerFixtures",
  platforms: [.macOS(.v15)],
  dependencies: [
    .package(url: "https://github.com/apple/swift-nio", from: "2.101.0"),
    .package(url: "https://github.com/hummingbird-project/hummingbird", from: "2.28.0", traits: []),
    .package(url: "https://github.com/swift-server/swift-service-lifecycle", from: "2.0.0"),
    .package(url: "https://github.com/apple/swift-log", from: "1.14.0"),
  ],
  targets: [
    // The shared frame: arguments, the loopback client, the synchronous main.
    .target(name: "FixtureSupport", dependencies: [.product(name: "NIOCore", package: "swift-nio")]),

    // MARK: SwiftNIO servers
    // A handler keeps its ChannelHandlerContext (Kitura-WebSocket-NIO #33, vapor/core #134).
    .executableTarget(name: "ContextHandler", dependencies: ["FixtureSupport", .nio, .nioHTTP1]),
    // A keepalive handler keeps the repeated task whose closure keeps it (grpc-swift-nio-transport #84).
    .executableTarget(name: "KeepaliveTimer", dependencies: ["FixtureSupport", .nio, .nioHTTP1]),
    // A call keeps its transport, whose onStart callback keeps the call (grpc-swift #1570).
    .executableTarget(name: "CallTransport", dependencies: ["FixtureSupport", .nio, .nioHTTP1]),

    // MARK: Hummingbird servers
    // Runs a Hummingbird router on its own event loops until the requests are done.
    .target(
      name: "HummingbirdFixture",
      dependencies: [
        "FixtureSupport", .hummingbird, .nio, .product(name: "NIOCore", package: "swift-nio"),
        .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
        .product(name: "Logging", package: "swift-log"),
      ]),
    // A socket's callbacks capture the socket they are stored on.
    .executableTarget(name: "SocketCallbacks", dependencies: ["HummingbirdFixture", .hummingbird]),
    // A subscription keeps a Task looping over a stream that never finishes.
    .executableTarget(name: "SubscriptionTask", dependencies: ["HummingbirdFixture", .hummingbird]),
    // Middleware keeps one record per request in a global list: growth, no leak.
    .executableTarget(name: "AuditTrail", dependencies: ["HummingbirdFixture", .hummingbird]),
    // Middleware caches every response under a key per request in a global dictionary: growth, no leak.
    .executableTarget(name: "ResponseCache", dependencies: ["HummingbirdFixture", .hummingbird]),
    // Each request's session subscribes to a global hub and never unsubscribes: growth, no leak.
    .executableTarget(name: "ObserverList", dependencies: ["HummingbirdFixture", .hummingbird]),
    // A server that keeps nothing: the clean baseline.
    .executableTarget(name: "HelloServer", dependencies: ["HummingbirdFixture", .hummingbird]),
  ]
)

extension Target.Dependency {
  static let nio = Target.Dependency.product(name: "NIOPosix", package: "swift-nio")
  static let nioHTTP1 = Target.Dependency.product(name: "NIOHTTP1", package: "swift-nio")
  static let hummingbird = Target.Dependency.product(name: "Hummingbird", package: "hummingbird")
}

for target in package.targets {
  var settings = target.swiftSettings ?? []
  settings.append(.swiftLanguageMode(.v6))
  target.swiftSettings = settings
}
