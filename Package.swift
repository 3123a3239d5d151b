// swift-tools-version:6.1
import PackageDescription

let package = Package(
  name: "LeakLab",
  platforms: [.macOS(.v15)],
  products: [
    .library(name: "LeakClock", targets: ["LeakClock"]),
    .library(name: "LeakDetector", targets: ["LeakDetector"]),
    .library(name: "ScreenKit", targets: ["ScreenKit"]),
    .library(name: "Scenarios", targets: ["Scenarios"]),
    .executable(name: "leaklab", targets: ["leaklab"]),
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

    // MARK: The scenario catalogue (top-level Scenarios/ folder, one file per scenario)
    .target(
      name: "Scenarios",
      dependencies: ["LeakClock", "LeakDetector", "ScreenKit"],
      path: "Scenarios",
      exclude: ["README.md"]
    ),

    // MARK: Command line (`leaklab list`, `leaklab check`)
    .executableTarget(
      name: "leaklab",
      dependencies: [
        "Scenarios", "LeakDetector", "LeakClock",
        .product(name: "ArgumentParser", package: "swift-argument-parser"),
      ]
    ),

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
      name: "ScenariosTests",
      dependencies: ["Scenarios", "ScreenKit", "LeakDetector", "LeakClock"]
    ),
  ]
)

// Every target is built in the Swift 6 language mode with strict concurrency.
for target in package.targets {
  var settings = target.swiftSettings ?? []
  settings.append(.enableUpcomingFeature("ExistentialAny"))
  target.swiftSettings = settings
}
