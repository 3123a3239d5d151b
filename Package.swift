// swift-tools-version:6.1
import PackageDescription

// LeakLab: libraries that find and explain leaks in Swift on Linux, and
// `leaklab`, the terminal app that shows them on a catalogue of classic leaks.
//
// Products are what other packages import: the libraries and `leaklab`.
// Everything else (the app's own targets, tools for tests, the oracle and
// benchmarks) is internal. Targets are grouped below: libraries, the app,
// tools, tests. docs/architecture.md has the direction of dependencies.
//
// Instrumented builds (`LEAKLAB_INSTRUMENTED=asan` or `tsan`, in `make test`)
// leave out what they do not exercise: the lint and swift-syntax, the
// benchmarks and the allocation recorder (`leaklab` is built there without
// its `lint` command). The
// AddressSanitizer build also makes the fuzz targets libFuzzer binaries
// (coverage of the targets themselves: `make fuzz` has its own build, all
// of it instrumented). The ThreadSanitizer build has only the libraries
// whose tests run threads against each other, and their tests.
let instrumented = Context.environment["LEAKLAB_INSTRUMENTED"]

let package = Package(
  name: "LeakLab",
  platforms: [.macOS(.v15)],
  products: [
    .library(name: "LeakDetector", targets: ["LeakDetector"]),
    .library(name: "LeakClock", targets: ["LeakClock"]),
    .library(name: "RetainGraph", targets: ["RetainGraph"]),
    .library(name: "MemoryView", targets: ["MemoryView"]),
    .library(name: "HeapModel", targets: ["HeapModel"]),
    .library(name: "ProcessLeaks", targets: ["ProcessLeaks"]),
    .library(name: "LeakTesting", targets: ["LeakTesting"]),
    .library(name: "ScreenKit", targets: ["ScreenKit"]),
    .library(name: "MemcheckOracle", targets: ["MemcheckOracle"]),
    .library(name: "GraphLayout", targets: ["GraphLayout"]),
    .library(name: "RetainGraphDrawing", targets: ["RetainGraphDrawing"]),
    .library(name: "LeakLint", targets: ["LeakLint"]),
    .executable(name: "leaklab", targets: ["leaklab"]),
    // Preloaded into programs `leaklab leaks --stacks` starts (found beside `leaklab`): not imported.
    .library(name: "LeakLabAllocationRecorder", type: .dynamic, targets: ["CAllocationRecorder"]),
  ],
  dependencies: [
    .package(url: "https://github.com/apple/swift-argument-parser", from: "1.5.0"),
    .package(url: "https://github.com/swiftlang/swift-syntax", from: "603.0.1"),
    // A third-party library the leak fixtures and the combine-sink scenario leak through (Combine's API on Linux).
    .package(url: "https://github.com/OpenCombine/OpenCombine", from: "0.14.0"),
  ],
  targets: [
    // MARK: - Libraries (products: know nothing of the app or the terminal)

    // Time: the scheduler everything waits on, live or manual.
    .target(name: "LeakClock"),
    // "Should have deallocated" checks, lifetime budgets, the summary label.
    .target(
      name: "LeakDetector", dependencies: ["LeakClock", "CLeakRuntime", "LeakLabLocking"],
      exclude: ["README.md"]),
    // The one lock: a pthread mutex, which ThreadSanitizer follows (`Synchronization.Mutex` it cannot).
    .target(name: "LeakLabLocking"),
    .target(name: "CLeakRuntime"),
    // Retain paths, over the runtime's Remote Mirror library used in-process.
    .target(
      name: "RetainGraph", dependencies: ["CRemoteMirror", "MemoryView", "HeapModel", "LeakLabLocking"],
      exclude: ["README.md"]),
    .target(
      name: "CRemoteMirror",
      linkerSettings: [.linkedLibrary("swiftRemoteMirror"), .linkedLibrary("dl")]
    ),
    // Memory of any process (ours or a pid): maps, images, threads, malloc blocks, roots.
    .target(name: "MemoryView", dependencies: ["CMemoryView", "LeakLabLocking"]),
    .target(name: "CMemoryView"),
    // The one heap model: every block of a snapshot typed, its references
    // read exactly where Swift metadata describes them; leaks, root paths,
    // the census read it.
    .target(
      name: "HeapModel",
      dependencies: ["MemoryView", "CMemoryView", "CRemoteMirror", "CHeapModel", "LeakLabLocking"]),
    // The heap model's step per block for the common blocks, in C.
    .target(name: "CHeapModel", dependencies: ["CMemoryView", "CRemoteMirror"]),
    // Whole-program leaks (`leaklab leaks`): ptrace, the heap marked from the
    // roots, leaked blocks named by Remote Mirror reading the other process.
    .target(
      name: "ProcessLeaks",
      dependencies: [
        "CProcessLeaks", "CRemoteMirror", "RetainGraph", "MemoryView", "CMemoryView", "HeapModel",
        "LeakLabLocking",
      ]
    ),
    // The allocation recorder (`--stacks`): a C library preloaded into the
    // program, recording each live block's allocation stack. Nothing links it.
    .target(name: "CAllocationRecorder", linkerSettings: [.linkedLibrary("unwind")]),
    .target(
      name: "CProcessLeaks",
      dependencies: ["CMemoryView"],
      linkerSettings: [
        .linkedLibrary("unwind-ptrace"), .linkedLibrary("unwind-generic"), .linkedLibrary("unwind"),
        .linkedLibrary("lzma"),
      ]
    ),
    // Leak-test helpers for XCTest and Swift Testing, in any package.
    .target(
      name: "LeakTesting",
      dependencies: [
        "LeakDetector", "LeakClock", "RetainGraph", "RetainGraphDrawing", "GraphLayout", "HeapModel",
        "MemoryView",
      ],
      exclude: ["README.md"]
    ),
    // Simulated UIKit: screens, views, navigation, alerts.
    .target(name: "ScreenKit", dependencies: ["LeakClock"]),
    // A second judge: valgrind memcheck's leak report, read and compared.
    .target(name: "MemcheckOracle"),
    // Pictures of retain graphs: a graph in, a TextGrid Grid or DOT / Mermaid / JSON out.
    .target(name: "GraphLayout", dependencies: ["TextGrid"], exclude: ["README.md"]),
    // RetainGraph's explanations as GraphLayout graphs (neither depends on the other).
    .target(name: "RetainGraphDrawing", dependencies: ["RetainGraph", "GraphLayout"]),
    // The catalogue's leak patterns found statically (swift-syntax only).
    .target(
      name: "LeakLint",
      dependencies: [
        .product(name: "SwiftSyntax", package: "swift-syntax"),
        .product(name: "SwiftParser", package: "swift-syntax"),
      ],
      exclude: ["README.md"]
    ),

    // MARK: - The app (not products)

    // The scenario catalogue: top-level Scenarios/, one file per scenario, machinery in Support/.
    .target(
      name: "Scenarios",
      dependencies: [
        "LeakClock", "LeakDetector", "ScreenKit", .product(name: "OpenCombine", package: "OpenCombine"),
      ],
      path: "Scenarios",
      exclude: ["README.md", "Scripts"]
    ),
    // The render target: cells, styles, boxes, keys.
    .target(name: "TextGrid"),
    // Step scripts: the plain-text UI step format, its parser and runner.
    .target(name: "StepScripts", dependencies: ["TextGrid"]),
    // The app model: state, actions, reducer, key map, render to a grid, the headless script driver.
    .target(
      name: "LeakLab",
      dependencies: [
        "Scenarios", "LeakDetector", "LeakClock", "ScreenKit", "RetainGraph", "TextGrid", "StepScripts",
        "GraphLayout", "RetainGraphDrawing", "ProcessLeaks", "LeakLabLocking",
      ],
      exclude: ["README.md"]
    ),
    // The terminal: ncurses setup and restore, keys in, grid out. Only it touches ncurses.
    .target(name: "LeakLabTerminal", dependencies: ["CNcurses", "TextGrid"]),
    .target(name: "CNcurses", linkerSettings: [.linkedLibrary("ncursesw")]),
    // Driving a terminal program from outside: tmux sessions, child processes, the step-script driver.
    .target(
      name: "TerminalAutomation",
      dependencies: ["CSpawn", "MemoryView", "StepScripts", "TextGrid", "LeakLabLocking"]),
    .target(name: "CSpawn"),
    // The command line: the app, list, check, explain, run, oracle, leaks.
    .executableTarget(
      name: "leaklab",
      dependencies: [
        "LeakLab", "LeakLabTerminal", "TerminalAutomation", "Scenarios", "StepScripts", "TextGrid",
        "LeakDetector", "LeakClock", "MemcheckOracle", "MemoryView", "ProcessLeaks", "LeakLint",
        "LeakLabLocking",
        .product(name: "ArgumentParser", package: "swift-argument-parser"),
      ]
    ),

    // MARK: - Tools (Tools/: executables for tests, the oracle and benchmarks; not products)

    // What `leaklab oracle` runs under valgrind: Swift code only (see DECISIONS.md).
    .executableTarget(
      name: "LeakLabProbe",
      dependencies: ["Scenarios", "LeakClock", "MemcheckOracle"],
      path: "Tools/LeakLabProbe"
    ),
    // A tiny terminal app the terminal layer's end-to-end tests drive in tmux.
    .executableTarget(
      name: "TerminalSmoke",
      dependencies: ["LeakLabTerminal", "TextGrid"],
      path: "Tools/TerminalSmoke"
    ),
    // Programs `leaklab leaks` is judged on: each leaks through a library in
    // its `leaky` form and not in its `fixed` form.
    .executableTarget(name: "FeedCycle", path: "Tools/LeakFixtures/FeedCycle"),
    .executableTarget(name: "OperationCompletion", path: "Tools/LeakFixtures/OperationCompletion"),
    .executableTarget(name: "TimerBlock", path: "Tools/LeakFixtures/TimerBlock"),
    .executableTarget(name: "NotificationObserver", path: "Tools/LeakFixtures/NotificationObserver"),
    .executableTarget(name: "DispatchWorkItemCycle", path: "Tools/LeakFixtures/DispatchWorkItemCycle"),
    .executableTarget(name: "DispatchDataSource", path: "Tools/LeakFixtures/DispatchDataSource"),
    .executableTarget(
      name: "CombineSink", dependencies: ["OpenCombine"], path: "Tools/LeakFixtures/CombineSink"),
    // A request loop that keeps something of every request reachable (a global list, a cache, an
    // observer list): what `leaklab heap` is judged on.
    .executableTarget(name: "GrowingHeap", path: "Tools/LeakFixtures/GrowingHeap"),
    // A server that grows and leaks a cycle per request (SIGUSR1), exits with status 3 on SIGUSR2:
    // what `leaklab watch`'s end-to-end tests drive.
    .executableTarget(name: "WatchedServer", path: "Tools/LeakFixtures/WatchedServer"),
    // `make bench`'s program for `leaklab leaks`: a million live objects, some leaked cycles.
    .executableTarget(name: "LiveObjects", path: "Tools/LeakFixtures/LiveObjects"),
    // What the runtime holds where no scan looks: a continuation's task, an object's side table.
    .executableTarget(name: "RuntimeHeld", path: "Tools/LeakFixtures/RuntimeHeld"),
    // Leaks made at known lines (an initializer, a factory, a closure, a Task): `--stacks` names them.
    .executableTarget(name: "AllocationSites", path: "Tools/LeakFixtures/AllocationSites"),
    // The concurrent-mutation stress: threads rewire a graph while the explainer reads it.
    .executableTarget(
      name: "LeakLabStress",
      dependencies: ["LeakClock", "LeakDetector", "RetainGraph"],
      path: "Tools/LeakLabStress"
    ),
    // Fuzz targets (`make fuzz`): libFuzzer binaries when built with -sanitize=fuzzer
    // -DLEAKLAB_FUZZ, replayers of saved inputs otherwise.
    .target(name: "FuzzSupport", path: "Tools/FuzzSupport"),
    .executableTarget(
      name: "FuzzStepScripts",
      dependencies: ["FuzzSupport", "LeakLab", "StepScripts"],
      path: "Tools/FuzzStepScripts"
    ),
    .executableTarget(
      name: "FuzzExplainer",
      dependencies: ["FuzzSupport", "RetainGraph"],
      path: "Tools/FuzzExplainer"
    ),
    // `make lint-precision`: the lint's findings on real code, sampled with a fixed seed and
    // checked against the verdicts in docs/lint-precision.md.
    .executableTarget(name: "LintPrecision", dependencies: ["LeakLint"], path: "Tools/LintPrecision"),
    // `make bench`: release-build benchmarks, medians and ratios side by side.
    .executableTarget(
      name: "LeakLabBenchmarks",
      dependencies: [
        "LeakClock", "LeakDetector", "RetainGraph", "TextGrid", "GraphLayout", "LeakLint", "MemoryView",
        "HeapModel", "ProcessLeaks",
        .product(name: "SwiftParser", package: "swift-syntax"),
      ],
      path: "Tools/LeakLabBenchmarks"
    ),

    // MARK: - Tests (executables they run are found with builtExecutable(named:))

    // Shared by several test targets: snapshots, built executables, LeakTesting fixtures.
    .target(
      name: "LeakLabTestSupport",
      dependencies: ["TextGrid", "LeakDetector", "LeakClock", "ScreenKit", "MemoryView", "LeakLabLocking"],
      path: "Tests/TestSupport"
    ),
    .testTarget(name: "LeakClockTests", dependencies: ["LeakClock"]),
    .testTarget(
      name: "LeakDetectorTests",
      dependencies: ["LeakDetector", "LeakClock", "HeapModel", "MemoryView", "LeakLabTestSupport"]),
    .testTarget(
      name: "RetainGraphTests",
      dependencies: [
        "RetainGraph", "HeapModel", "MemoryView", "CMemoryViewTestSupport", "LeakLabTestSupport",
        "LeakLabLocking",
      ]),
    // Hand-built C structures for the MemoryView tests (lists, trees, blocks on other threads).
    .target(name: "CMemoryViewTestSupport", path: "Tests/CMemoryViewTestSupport"),
    .testTarget(
      name: "MemoryViewTests", dependencies: ["MemoryView", "CMemoryViewTestSupport", "LeakLabTestSupport"]),
    .testTarget(
      name: "HeapModelTests",
      dependencies: ["HeapModel", "MemoryView", "CMemoryViewTestSupport", "LeakLabTestSupport"]),
    .testTarget(
      name: "ProcessLeaksTests", dependencies: ["ProcessLeaks", "LeakLab", "Scenarios", "LeakLabTestSupport"]),
    .testTarget(
      name: "RetainGraphDrawingTests",
      dependencies: ["RetainGraphDrawing", "RetainGraph", "GraphLayout", "TextGrid"]
    ),
    .testTarget(
      name: "LeakTestingTests",
      dependencies: [
        "LeakTesting", "LeakDetector", "LeakClock", "ScreenKit", "LeakLabTestSupport", "LeakLabLocking",
      ]
    ),
    .testTarget(
      name: "LeakTestingXCTests",
      dependencies: ["LeakTesting", "LeakDetector", "LeakClock", "ScreenKit", "LeakLabTestSupport"]
    ),
    .testTarget(
      name: "ScreenKitTests",
      dependencies: ["ScreenKit", "LeakDetector", "LeakClock", "LeakLabTestSupport"]
    ),
    .testTarget(name: "MemcheckOracleTests", dependencies: ["MemcheckOracle"]),
    .testTarget(
      name: "ScenariosTests",
      dependencies: ["Scenarios", "ScreenKit", "LeakDetector", "LeakClock", "LeakLabTestSupport"]
    ),
    .testTarget(
      name: "TextGridTests",
      dependencies: ["TextGrid", "LeakLabTestSupport"],
      exclude: ["__Snapshots__"]
    ),
    .testTarget(
      name: "GraphLayoutTests",
      dependencies: ["GraphLayout", "TextGrid", "LeakLabTestSupport"],
      exclude: ["__Snapshots__"]
    ),
    .testTarget(name: "StepScriptsTests", dependencies: ["StepScripts"]),
    .testTarget(
      name: "LeakLintTests", dependencies: ["LeakLint", "Scenarios", "LeakLabTestSupport", "ProcessLeaks"],
      exclude: ["Corpus"]),
    .testTarget(
      name: "LeakLabTests",
      dependencies: [
        "LeakLab", "Scenarios", "LeakDetector", "LeakClock", "ScreenKit", "TextGrid", "LeakLabTerminal",
        "TerminalAutomation", "LeakLabTestSupport", "StepScripts", "GraphLayout", "MemoryView",
        "LeakLabLocking",
      ],
      exclude: ["__Snapshots__"]
    ),
    .testTarget(name: "TerminalAutomationTests", dependencies: ["TerminalAutomation", "TextGrid"]),
    .testTarget(
      name: "LeakLabTerminalTests",
      dependencies: ["LeakLabTerminal", "TerminalAutomation", "TextGrid", "LeakLabTestSupport"]
    ),
  ]
)

// Every target: the Swift 6 language mode (complete strict-concurrency
// checking, data races are errors) and `any` spelled out for existentials.
for target in package.targets where target.type != .system {
  var settings = target.swiftSettings ?? []
  settings.append(.swiftLanguageMode(.v6))
  settings.append(.enableUpcomingFeature("ExistentialAny"))
  target.swiftSettings = settings
}

if let instrumented {
  // The allocation recorder is a malloc of its own: an instrumented one is never preloaded (the tests
  // that use it need glibc's heap, which a sanitizer replaces).
  let leftOut: Set<String> = [
    "LeakLint", "LeakLintTests", "LeakLabBenchmarks", "LintPrecision", "CAllocationRecorder",
  ]
  package.targets.removeAll { leftOut.contains($0.name) }
  package.products.removeAll { $0.name == "LeakLint" || $0.name == "LeakLabAllocationRecorder" }
  package.dependencies.removeAll {
    if case .sourceControl(_, let location, _) = $0.kind { return location.hasSuffix("/swift-syntax") }
    return false
  }
  for target in package.targets where ["leaklab", "LeakLabTests"].contains(target.name) {
    target.dependencies.removeAll {
      if case .byNameItem(let name, _) = $0 { return name == "LeakLint" }
      return false
    }
    target.swiftSettings = (target.swiftSettings ?? []) + [.define("LEAKLAB_WITHOUT_LINT")]
  }
  if instrumented == "asan" {
    for target in package.targets where target.name.hasPrefix("Fuzz") {
      target.swiftSettings = (target.swiftSettings ?? []) + [.unsafeFlags(["-sanitize=fuzzer"])]
      if target.name == "FuzzSupport" {
        target.swiftSettings = (target.swiftSettings ?? []) + [.define("LEAKLAB_FUZZ")]
      } else {
        target.linkerSettings = (target.linkerSettings ?? []) + [.unsafeFlags(["-sanitize=fuzzer"])]
      }
    }
  }
  if instrumented == "tsan" {
    let tests: Set<String> = [
      "LeakClockTests", "LeakDetectorTests", "RetainGraphTests", "MemoryViewTests", "HeapModelTests",
      "LeakTestingTests", "LeakTestingXCTests", "ScreenKitTests",
    ]
    var kept = Set<String>()
    var pending = Array(tests)
    while let name = pending.popLast() {
      guard kept.insert(name).inserted, let target = package.targets.first(where: { $0.name == name }) else {
        continue
      }
      for dependency in target.dependencies {
        switch dependency {
        case .byNameItem(let name, _), .targetItem(let name, _): pending.append(name)
        default: break
        }
      }
    }
    package.targets.removeAll { !kept.contains($0.name) }
    package.products.removeAll { product in
      let targets = (product as? Product.Library)?.targets ?? (product as? Product.Executable)?.targets ?? []
      return !targets.allSatisfy(kept.contains)
    }
    package.dependencies.removeAll()
  }
}
