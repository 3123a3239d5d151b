// swift-tools-version:6.1
import PackageDescription

let package = Package(
  name: "LeakLab",
  platforms: [.macOS(.v15)],
  products: [
    .library(name: "LeakClock", targets: ["LeakClock"]),
    .library(name: "LeakDetector", targets: ["LeakDetector"]),
    .library(name: "ScreenKit", targets: ["ScreenKit"]),
    .library(name: "LeakTesting", targets: ["LeakTesting"]),
  ],
  dependencies: [
    .package(url: "https://github.com/apple/swift-argument-parser", from: "1.5.0")
  ],
  targets: [
    // MARK: Time
    .target(name: "LeakClock"),

    // MARK: Libraries
    .target(name: "LeakDetector", dependencies: ["LeakClock"]),
    .target(name: "ScreenKit", dependencies: ["LeakClock"]),

    // MARK: Test helpers (for XCTest and Swift Testing, in any package)
    .target(name: "LeakTesting", dependencies: ["LeakDetector", "LeakClock"], exclude: ["README.md"]),

    // MARK: Benchmarks (`make bench`)
    .executableTarget(
      name: "LeakLabBenchmarks",
      dependencies: ["LeakClock", "LeakDetector"]
    ),

    // MARK: Tests
    .testTarget(name: "LeakClockTests", dependencies: ["LeakClock"]),
    .testTarget(name: "LeakDetectorTests", dependencies: ["LeakDetector", "LeakClock"]),
    .testTarget(name: "ScreenKitTests", dependencies: ["ScreenKit", "LeakDetector", "LeakClock"]),
    .testTarget(
      name: "LeakTestingTests",
      dependencies: ["LeakTesting", "LeakDetector", "LeakClock", "ScreenKit"]
    ),
    .testTarget(
      name: "LeakTestingXCTests",
      dependencies: ["LeakTesting", "LeakDetector", "LeakClock", "ScreenKit"]
    ),
  ]
)

// Every target is built in the Swift 6 language mode with strict concurrency.
for target in package.targets {
  var settings = target.swiftSettings ?? []
  settings.append(.enableUpcomingFeature("ExistentialAny"))
  target.swiftSettings = settings
}
