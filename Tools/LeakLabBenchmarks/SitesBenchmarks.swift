import Foundation
import MemoryView
import ProcessLeaks

/// `--stacks` (issue 24): the allocation recorder's cost on an
/// allocation-heavy program (LiveObjects: 10^5 live objects), beside the
/// program alone and under heaptrack; and the symbolization of 10^4
/// distinct stacks.
///
/// Needs `LiveObjects` and `libLeakLabAllocationRecorder.so` built in
/// release next to the benchmark (`make bench` builds them); heaptrack on
/// PATH for its column.
enum SitesBenchmarks {
  static func run() {
    recorder()
    // `make server-fixtures` builds them (debug unless BUILD_FLAGS says otherwise).
    let servers = ["release", "debug"].map { "Tools/ServerFixtures/.build/\($0)" }
    if let directory = servers.first(where: {
      FileManager.default.isExecutableFile(atPath: $0 + "/ContextHandler")
    }) {
      server(in: directory)
    } else {
      print("\nallocation recorder on a server: skipped (make server-fixtures builds them)")
    }
    symbolization()
  }

  /// A SwiftNIO server fixture (ContextHandler, leaky) answering 1,000
  /// requests: alone, under the recorder, under heaptrack and under
  /// memcheck (a copy without debug info: valgrind 3.19 reads no DWARF 5).
  static func server(in directory: String) {
    let program = URL(fileURLWithPath: directory).appendingPathComponent("ContextHandler").path
    let recorder = LeaksBenchmarks.directory.appendingPathComponent(AllocationRecorder.libraryName).path
    guard FileManager.default.fileExists(atPath: recorder) else {
      print("\nallocation recorder on a server: skipped (build LeakLabAllocationRecorder in release)")
      return
    }
    let arguments = ["leaky", "--requests", "1000"]
    let alone = median(repetitions: 5) { LeaksBenchmarks.wallTime(program, arguments) }
    let recorded = median(repetitions: 5) {
      wallTime(program, arguments, environment: ["LD_PRELOAD": recorder])
    }
    var row = [
      "ContextHandler, 1,000 requests", format(alone), "\(format(recorded)) (\(ratio(recorded, alone)))",
    ]
    if let heaptrack = LeaksBenchmarks.installedTool("heaptrack") {
      let output = FileManager.default.temporaryDirectory.appendingPathComponent("leaklab-bench-heaptrack")
        .path
      let time = median(repetitions: 3) {
        LeaksBenchmarks.wallTime(heaptrack, ["-o", output, program] + arguments)
      }
      try? FileManager.default.removeItem(atPath: output + ".zst")
      row.append("\(format(time)) (\(ratio(time, alone)))")
    } else {
      row.append("-")
    }
    let stripped = FileManager.default.temporaryDirectory.appendingPathComponent(
      "leaklab-bench-ContextHandler"
    ).path
    defer { try? FileManager.default.removeItem(atPath: stripped) }
    if let valgrind = LeaksBenchmarks.installedTool("valgrind"), strip(program, into: stripped) {
      let time = LeaksBenchmarks.wallTime(
        valgrind, ["--tool=memcheck", "--leak-check=full", stripped] + arguments)
      row.append("\(format(time)) (\(ratio(time, alone)))")
    } else {
      row.append("-")
    }
    printTable(
      title:
        "allocation recorder on a SwiftNIO server: wall time (median of 5; heaptrack of 3; memcheck once)",
      header: ["program", "alone", "under the recorder (goal ≤ 2x)", "under heaptrack", "under memcheck"],
      rows: [row])
  }

  static func recorder() {
    let directory = LeaksBenchmarks.directory
    let program = directory.appendingPathComponent("LiveObjects").path
    let recorder = directory.appendingPathComponent(AllocationRecorder.libraryName).path
    guard FileManager.default.isExecutableFile(atPath: program),
      FileManager.default.fileExists(atPath: recorder)
    else {
      print("\nallocation recorder: skipped (build LiveObjects and LeakLabAllocationRecorder in release)")
      return
    }
    let heaptrack = LeaksBenchmarks.installedTool("heaptrack")
    var rows: [[String]] = []
    for count in [100_000, 1_000_000] {
      let arguments = ["\(count)", "100"]
      let alone = median(repetitions: 5) { LeaksBenchmarks.wallTime(program, arguments) }
      let recorded = median(repetitions: 5) {
        wallTime(program, arguments, environment: ["LD_PRELOAD": recorder])
      }
      var heaptracked = "-"
      if let heaptrack {
        let output = FileManager.default.temporaryDirectory.appendingPathComponent("leaklab-bench-heaptrack")
          .path
        let time = median(repetitions: 3) {
          LeaksBenchmarks.wallTime(heaptrack, ["-o", output, program] + arguments)
        }
        try? FileManager.default.removeItem(atPath: output + ".zst")
        heaptracked = "\(format(time)) (\(ratio(time, alone)))"
      }
      rows.append([
        "\(count.formatted()) live", format(alone), "\(format(recorded)) (\(ratio(recorded, alone)))",
        heaptracked,
      ])
    }
    printTable(
      title: "allocation recorder: the program's wall time (median of 5; heaptrack: of 3)",
      header: ["program", "alone", "under the recorder", "under heaptrack"], rows: rows)
  }

  /// A copy of `program` without debug info at `copy`; whether `strip` made it.
  static func strip(_ program: String, into copy: String) -> Bool {
    let strip = Process()
    strip.executableURL = URL(fileURLWithPath: "/usr/bin/env")
    strip.arguments = ["strip", "--strip-debug", "-o", copy, program]
    guard (try? strip.run()) != nil else { return false }
    strip.waitUntilExit()
    return strip.terminationStatus == 0
  }

  /// 10^4 distinct stacks of 24 frames each, drawn from 10^4 or 3·10^4
  /// random addresses in this executable and libswiftCore (a fixed seed:
  /// nearly every frame a different function, a worst case), named by
  /// ``StackSymbolizer``, and each stack's site found.
  static func symbolization() {
    let pid = getpid()
    guard let map = try? MemoryMap(pid: pid) else { return }
    let images = ImageList(map: map, memory: .current)
    let executable = URL(fileURLWithPath: "/proc/self/exe").resolvingSymlinksInPath().path
    let code = images.images.filter { $0.name == "libswiftCore.so" || $0.path == executable }
      .flatMap(\.segments).filter { $0.count > 1 << 16 }
    guard !code.isEmpty else { return }
    var rows: [[String]] = []
    for poolSize in [10_000, 30_000] {
      var generator = SeededGenerator(seed: 24)
      let pool = (0..<poolSize).map { _ -> UInt in
        let segment = code[Int(generator.next() % UInt64(code.count))]
        return segment.lowerBound + 1 + UInt(generator.next() % UInt64(segment.count - 1))
      }
      let stacks = (0..<10_000).map { _ in
        (0..<24).map { _ in pool[Int(generator.next() % UInt64(pool.count))] }
      }
      var distinctFrames = 0
      var located = 0
      let time = median(repetitions: 3) {
        let clock = ContinuousClock()
        let start = clock.now
        let symbolizer = StackSymbolizer(images: images, executable: executable)
        let named = symbolizer.frames(for: stacks.flatMap { $0 })
        let sites = stacks.map { AllocationSite(frames: $0.flatMap { named[$0] ?? [] }).summary }
        distinctFrames = named.count
        located = named.values.filter { $0.contains { $0.line != nil } }.count
        precondition(sites.count == stacks.count)
        return clock.now - start
      }
      rows.append(["10,000", "\(distinctFrames.formatted())", "\(located.formatted())", format(time)])
    }
    printTable(
      title: "symbolization: 10^4 distinct stacks of 24 frames, random code addresses (median of 3)",
      header: ["stacks", "distinct frames", "with a line", "time"], rows: rows)
  }

  static func wallTime(_ executable: String, _ arguments: [String], environment: [String: String]) -> Duration
  {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: executable)
    process.arguments = arguments
    process.environment = ProcessInfo.processInfo.environment.merging(environment) { $1 }
    process.standardOutput = FileHandle.nullDevice
    process.standardError = FileHandle.nullDevice
    let clock = ContinuousClock()
    let start = clock.now
    guard (try? process.run()) != nil else { return .zero }
    process.waitUntilExit()
    return clock.now - start
  }
}

/// SplitMix64: the same numbers every run.
struct SeededGenerator {
  var state: UInt64
  init(seed: UInt64) { state = seed }
  mutating func next() -> UInt64 {
    state &+= 0x9e37_79b9_7f4a_7c15
    var value = state
    value = (value ^ (value >> 30)) &* 0xbf58_476d_1ce4_e5b9
    value = (value ^ (value >> 27)) &* 0x94d0_49bb_1331_11eb
    return value ^ (value >> 31)
  }
}
