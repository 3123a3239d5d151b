import Foundation

/// `leaklab leaks` on a program with 10^5 and 10^6 live objects (LiveObjects,
/// built beside this benchmark), beside the same program alone and under
/// valgrind memcheck: the analysis's time and memory, the whole run's time.
///
/// Needs `leaklab` and `LiveObjects` built in release next to the benchmark
/// (`make bench` builds them) and valgrind on PATH for its columns.
enum LeaksBenchmarks {
  static let directory = URL(fileURLWithPath: "/proc/self/exe").resolvingSymlinksInPath()
    .deletingLastPathComponent()

  /// The anchor tool `name` (valgrind, heaptrack) where Debian installs it, or nil.
  static func installedTool(_ name: String) -> String? {
    ["/usr/bin/\(name)", "/usr/local/bin/\(name)"].first { FileManager.default.isExecutableFile(atPath: $0) }
  }

  static func run() {
    let leaklab = directory.appendingPathComponent("leaklab").path
    let program = directory.appendingPathComponent("LiveObjects").path
    guard FileManager.default.isExecutableFile(atPath: leaklab),
      FileManager.default.isExecutableFile(atPath: program)
    else {
      print("\nleaklab leaks: skipped (build leaklab and LiveObjects in release: make bench does)")
      return
    }
    let valgrind = installedTool("valgrind")
    var rows: [[String]] = []
    var memoryRows: [[String]] = []
    for count in [100_000, 1_000_000] {
      let arguments = ["\(count)", "100"]
      let alone = median(repetitions: 5) { wallTime(program, arguments) }
      var analyses: [Analysis] = []
      let underLeaks = median(repetitions: 5) {
        let (duration, analysis) = leaks(leaklab, program, arguments)
        if let analysis { analyses.append(analysis) }
        return duration
      }
      analyses.sort { $0.milliseconds < $1.milliseconds }
      guard let analysis = analyses.isEmpty ? nil : analyses[analyses.count / 2] else { continue }
      var memcheck = "-"
      var memcheckLeakCheck = "-"
      if let valgrind {
        let repetitions = count >= 1_000_000 ? 1 : 3
        var leakChecks: [Duration] = []
        let full = median(repetitions: repetitions) {
          let (duration, leakCheck) = memcheckRun(valgrind, program, arguments)
          leakChecks.append(leakCheck)
          return duration
        }
        memcheck = "\(format(full)) (\(ratio(full, alone)))"
        memcheckLeakCheck = format(leakChecks.sorted()[leakChecks.count / 2])
      }
      rows.append([
        "\(count.formatted()) live", format(.milliseconds(analysis.milliseconds)),
        format(.milliseconds(analysis.cpuMilliseconds)),
        analysis.phases.map { "\($0.key) \(Int($0.value.rounded()))" }.sorted().joined(separator: ", "),
        format(alone), "\(format(underLeaks)) (\(ratio(underLeaks, alone)))", memcheck, memcheckLeakCheck,
      ])
      memoryRows.append([
        "\(count.formatted()) live", "\(analysis.heapBlocks.formatted())", megabytes(analysis.heapBytes),
        megabytes(analysis.markTableBytes), megabytes(analysis.heapTableBytes),
        megabytes(analysis.peakMemoryBytes),
      ])
    }
    printTable(
      title: "leaklab leaks: analysis at exit (median of 5; program leaks 100 cycles)",
      header: [
        "program", "analysis", "its CPU time", "phases (ms)", "program alone", "under leaklab leaks",
        "under memcheck",
        "memcheck's leak check",
      ], rows: rows)
    var censusRows: [[String]] = []
    for count in [100_000, 1_000_000] {
      var censuses = (0..<5).compactMap { _ in census(leaklab, program, ["\(count)", "100"]) }
      censuses.sort { $0.stoppedMilliseconds < $1.stoppedMilliseconds }
      guard !censuses.isEmpty else { continue }
      let middle = censuses[censuses.count / 2]
      censusRows.append([
        "\(count.formatted()) live", format(.milliseconds(middle.stoppedMilliseconds)),
        format(.milliseconds(middle.cpuMilliseconds ?? 0)),
        (middle.phases ?? [:]).map { "\($0.key) \(Int($0.value.rounded()))" }.sorted().joined(
          separator: ", "),
        censuses.map { format(.milliseconds($0.stoppedMilliseconds)) }.joined(separator: ", "),
      ])
    }
    printTable(
      title:
        "leaklab heap -- LiveObjects: the census at exit, how long the program was stopped (median of 5)",
      header: ["program", "stopped (goal ≤ 300 ms at 10^6)", "leaklab's CPU", "phases (ms)", "all five"],
      rows: censusRows)
    printTable(
      title: "leaklab leaks: memory of the analysis",
      header: [
        "program", "heap blocks", "heap", "mark (incl. heap copy)", "heap tables", "leaklab peak RSS",
      ],
      rows: memoryRows)
  }

  struct Analysis: Decodable {
    var milliseconds: Double
    var cpuMilliseconds: Double
    var phases: [String: Double]
    var heapBlocks: Int
    var heapBytes: Int
    var markTableBytes: Int
    var heapTableBytes: Int
    var peakMemoryBytes: Int
  }

  private struct Report: Decodable {
    var analysis: Analysis
  }

  /// The whole run under `leaklab leaks --json`, and its analysis figures.
  static func leaks(_ leaklab: String, _ program: String, _ arguments: [String]) -> (Duration, Analysis?) {
    let file = FileManager.default.temporaryDirectory.appendingPathComponent(
      "bench-\(UUID().uuidString).json")
    defer { try? FileManager.default.removeItem(at: file) }
    let duration = wallTime(leaklab, ["leaks", "--json", "-o", file.path, "--", program] + arguments)
    let report = (try? Data(contentsOf: file)).flatMap { try? JSONDecoder().decode(Report.self, from: $0) }
    return (duration, report?.analysis)
  }

  /// What the benchmark reads of `leaklab heap --json`.
  struct Census: Decodable {
    var stoppedMilliseconds: Double
    var cpuMilliseconds: Double?
    var phases: [String: Double]?
  }

  /// `leaklab heap --json -o FILE -- PROGRAM ARGUMENTS`: the census's figures.
  static func census(_ leaklab: String, _ program: String, _ arguments: [String]) -> Census? {
    let file = FileManager.default.temporaryDirectory.appendingPathComponent(
      "bench-\(UUID().uuidString).json")
    defer { try? FileManager.default.removeItem(at: file) }
    _ = wallTime(leaklab, ["heap", "--json", "-o", file.path, "--", program] + arguments)
    return (try? Data(contentsOf: file)).flatMap { try? JSONDecoder().decode(Census.self, from: $0) }
  }

  /// One run under memcheck with a full leak check: its wall time, and the
  /// leak check's own (from valgrind's time stamps: "HEAP SUMMARY" to the end).
  static func memcheckRun(_ valgrind: String, _ program: String, _ arguments: [String]) -> (
    Duration, Duration
  ) {
    let log = FileManager.default.temporaryDirectory.appendingPathComponent("bench-\(UUID().uuidString).log")
    defer { try? FileManager.default.removeItem(at: log) }
    let duration = wallTime(
      valgrind,
      ["--tool=memcheck", "--leak-check=full", "--time-stamp=yes", "--log-file=\(log.path)", program]
        + arguments)
    let lines = ((try? String(contentsOf: log, encoding: .utf8)) ?? "").split(separator: "\n")
    func stamp(_ line: Substring?) -> Double? {
      // "==00:00:00:03.101 29860== HEAP SUMMARY:": days:hours:minutes:seconds.
      guard let line, line.hasPrefix("=="), let end = line.dropFirst(2).firstIndex(of: " ") else {
        return nil
      }
      let parts = line[line.index(line.startIndex, offsetBy: 2)..<end].split(separator: ":").compactMap {
        Double($0)
      }
      guard parts.count == 4 else { return nil }
      return ((parts[0] * 24 + parts[1]) * 60 + parts[2]) * 60 + parts[3]
    }
    guard let start = stamp(lines.first { $0.contains("HEAP SUMMARY") }), let end = stamp(lines.last) else {
      return (duration, .zero)
    }
    return (duration, .milliseconds(Int64(((end - start) * 1000).rounded())))
  }

  /// The wall time of one run of `executable`, its output discarded.
  static func wallTime(_ executable: String, _ arguments: [String]) -> Duration {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: executable)
    process.arguments = arguments
    process.standardOutput = FileHandle.nullDevice
    process.standardError = FileHandle.nullDevice
    let clock = ContinuousClock()
    let start = clock.now
    guard (try? process.run()) != nil else { return .zero }
    process.waitUntilExit()
    return clock.now - start
  }

  static func megabytes(_ bytes: Int) -> String {
    "\((Double(bytes) / 1_048_576 * 10).rounded() / 10) MB"
  }
}
