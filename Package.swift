// swift-tools-version:6.1
import PackageDescription

let package = Package(
  name: "LeakLab",
  platforms: [.macOS(.v15)],
  products: [
    .library(name: "LeakClock", targets: ["LeakClock"]),
    .library(name: "TextGrid", targets: ["TextGrid"]),
    .library(name: "LeakLabTerminal", targets: ["LeakLabTerminal"]),
  ],
  dependencies: [
    .package(url: "https://github.com/apple/swift-argument-parser", from: "1.5.0")
  ],
  targets: [
    // MARK: Time
    .target(name: "LeakClock"),

    // MARK: Terminal (render target, ncurses driver, pseudo-terminal driver)
    .target(name: "TextGrid"),
    .target(
      name: "CNcurses",
      linkerSettings: [.linkedLibrary("ncursesw")]
    ),
    .target(
      name: "LeakLabTerminal",
      dependencies: ["CNcurses", "TextGrid"]
    ),
    // End-to-end fixture for the terminal layer's own tests; not a product.
    .executableTarget(
      name: "TerminalSmoke",
      dependencies: ["LeakLabTerminal", "TextGrid"]
    ),

    // MARK: Benchmarks (`make bench`)
    .executableTarget(
      name: "LeakLabBenchmarks",
      dependencies: ["LeakClock"]
    ),

    // MARK: Tests
    .testTarget(name: "LeakClockTests", dependencies: ["LeakClock"]),
    .testTarget(name: "TextGridTests", dependencies: ["TextGrid"], exclude: ["__Snapshots__"]),
    .testTarget(
      name: "LeakLabTerminalTests",
      dependencies: ["LeakLabTerminal", "TextGrid", "TerminalSmoke"]
    ),
  ]
)

// Every target is built in the Swift 6 language mode with strict concurrency.
for target in package.targets {
  var settings = target.swiftSettings ?? []
  settings.append(.enableUpcomingFeature("ExistentialAny"))
  target.swiftSettings = settings
}
