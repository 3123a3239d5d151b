// swift-tools-version:6.1
import PackageDescription

let package = Package(
  name: "LeakLab",
  platforms: [.macOS(.v15)],
  products: [
    .library(name: "LeakClock", targets: ["LeakClock"]),
    .library(name: "LeakDetector", targets: ["LeakDetector"]),
    .library(name: "ScreenKit", targets: ["ScreenKit"]),
    .library(name: "RetainGraph", targets: ["RetainGraph"]),
    .library(name: "MemcheckOracle", targets: ["MemcheckOracle"]),
    .library(name: "LeakTesting", targets: ["LeakTesting"]),
    .library(name: "StepScripts", targets: ["StepScripts"]),
    .library(name: "TextGrid", targets: ["TextGrid"]),
    .library(name: "LeakLabTerminal", targets: ["LeakLabTerminal"]),
    .library(name: "Scenarios", targets: ["Scenarios"]),
    .library(name: "LeakLab", targets: ["LeakLab"]),
    .library(name: "LeakLint", targets: ["LeakLint"]),
    .executable(name: "leaklab", targets: ["leaklab"]),
  ],
  dependencies: [
    .package(url: "https://github.com/apple/swift-argument-parser", from: "1.5.0"),
    .package(url: "https://github.com/swiftlang/swift-syntax", from: "603.0.1"),
  ],
  targets: [
    // MARK: Time
    .target(name: "LeakClock"),

    // MARK: Libraries
    .target(name: "CLeakRuntime"),
    .target(name: "LeakDetector", dependencies: ["LeakClock", "CLeakRuntime"]),
    .target(name: "ScreenKit", dependencies: ["LeakClock"]),

    // MARK: Step scripts (plain-text UI steps; run headless or in a terminal)
    .target(name: "StepScripts", dependencies: ["TextGrid"]),

    // MARK: Retain paths (the runtime's Remote Mirror library, used in-process)
    .target(
      name: "CRemoteMirror",
      linkerSettings: [.linkedLibrary("swiftRemoteMirror"), .linkedLibrary("dl")]
    ),
    .target(name: "RetainGraph", dependencies: ["CRemoteMirror"]),

    // MARK: A second judge: valgrind memcheck's leak report, read and compared
    .target(name: "MemcheckOracle"),
    // What `leaklab oracle` runs under valgrind: Swift code only (see DECISIONS.md).
    .executableTarget(name: "LeakLabProbe", dependencies: ["Scenarios", "LeakClock", "MemcheckOracle"]),

    // MARK: Test helpers (for XCTest and Swift Testing, in any package)
    .target(
      name: "LeakTesting",
      dependencies: ["LeakDetector", "LeakClock", "RetainGraph"],
      exclude: ["README.md"]
    ),

    // MARK: Terminal (render target, ncurses driver, pseudo-terminal driver)
    .target(name: "TextGrid"),
    .target(
      name: "CNcurses",
      linkerSettings: [.linkedLibrary("ncursesw")]
    ),
    .target(
      name: "LeakLabTerminal",
      dependencies: ["CNcurses", "TextGrid", "StepScripts"]
    ),
    // MARK: The app (model and rendering, no terminal) and its executable
    .target(
      name: "LeakLab",
      dependencies: [
        "Scenarios", "LeakDetector", "LeakClock", "ScreenKit", "RetainGraph", "TextGrid", "StepScripts",
      ],
      exclude: ["README.md"]
    ),
    // End-to-end fixture for the terminal layer's own tests; not a product.
    .executableTarget(
      name: "TerminalSmoke",
      dependencies: ["LeakLabTerminal", "TextGrid"]
    ),

    // MARK: Static lint (swift-syntax only: knows nothing of the runtime or the app)
    .target(
      name: "LeakLint",
      dependencies: [
        .product(name: "SwiftSyntax", package: "swift-syntax"),
        .product(name: "SwiftParser", package: "swift-syntax"),
      ],
      exclude: ["README.md"]
    ),

    // MARK: The scenario catalogue (top-level Scenarios/ folder, one file per scenario)
    .target(
      name: "Scenarios",
      dependencies: ["LeakClock", "LeakDetector", "ScreenKit"],
      path: "Scenarios",
      exclude: ["README.md", "Scripts"]
    ),

    // MARK: The command line: the app, list, check, explain, run
    .executableTarget(
      name: "leaklab",
      dependencies: [
        "LeakLab", "LeakLabTerminal", "Scenarios", "StepScripts", "TextGrid", "LeakDetector", "LeakClock",
        "MemcheckOracle", "LeakLabProbe", "LeakLint",
        .product(name: "ArgumentParser", package: "swift-argument-parser"),
      ]
    ),

    // MARK: Benchmarks (`make bench`)
    .executableTarget(
      name: "LeakLabBenchmarks",
      dependencies: [
        "LeakClock", "LeakDetector", "RetainGraph", "LeakLint",
        .product(name: "SwiftParser", package: "swift-syntax"),
      ]
    ),

    // MARK: Tests
    // Shared by several test targets: snapshots and the LeakTesting fixtures.
    .target(
      name: "LeakLabTestSupport",
      dependencies: ["TextGrid", "LeakDetector", "LeakClock", "ScreenKit"],
      path: "Tests/TestSupport"
    ),
    .testTarget(name: "LeakClockTests", dependencies: ["LeakClock"]),
    .testTarget(name: "StepScriptsTests", dependencies: ["StepScripts"]),
    .testTarget(name: "LeakDetectorTests", dependencies: ["LeakDetector", "LeakClock"]),
    .testTarget(
      name: "ScreenKitTests", dependencies: ["ScreenKit", "LeakDetector", "LeakClock", "LeakLabTestSupport"]),
    .testTarget(name: "RetainGraphTests", dependencies: ["RetainGraph"]),
    .testTarget(name: "MemcheckOracleTests", dependencies: ["MemcheckOracle"]),
    .testTarget(
      name: "LeakTestingTests",
      dependencies: ["LeakTesting", "LeakDetector", "LeakClock", "ScreenKit", "LeakLabTestSupport"]
    ),
    .testTarget(
      name: "LeakTestingXCTests",
      dependencies: ["LeakTesting", "LeakDetector", "LeakClock", "ScreenKit", "LeakLabTestSupport"]
    ),
    .testTarget(
      name: "TextGridTests", dependencies: ["TextGrid", "LeakLabTestSupport"], exclude: ["__Snapshots__"]),
    .testTarget(
      name: "LeakLabTerminalTests",
      dependencies: ["LeakLabTerminal", "TextGrid", "TerminalSmoke"]
    ),
    .testTarget(
      name: "ScenariosTests",
      dependencies: ["Scenarios", "ScreenKit", "LeakDetector", "LeakClock", "LeakLabTestSupport"]
    ),
    .testTarget(
      name: "LeakLintTests",
      dependencies: ["LeakLint", "Scenarios"],
      exclude: ["Corpus"]
    ),
    .testTarget(
      name: "LeakLabTests",
      dependencies: [
        "LeakLab", "Scenarios", "LeakDetector", "LeakClock", "ScreenKit", "TextGrid", "LeakLabTerminal",
        "leaklab", "LeakLabTestSupport",
      ],
      exclude: ["__Snapshots__"]
    ),
  ]
)

// Every target is built in the Swift 6 language mode with strict concurrency.
for target in package.targets {
  var settings = target.swiftSettings ?? []
  settings.append(.enableUpcomingFeature("ExistentialAny"))
  target.swiftSettings = settings
}
