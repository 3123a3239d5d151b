import Foundation
import MemcheckOracle

/// One program judged by `leaklab leaks` and by valgrind memcheck.
///
/// Rules:
/// 1. The classes of the program's own modules left unreachable at exit are
///    the same, instance for instance (memcheck names a block's class by its
///    allocating initializer; LeakLab by the block's metadata).
/// 2. For a leak fixture, every module counts: the numbers of unreachable
///    blocks are the same (memcheck's definitely + indirectly lost blocks;
///    LeakLab's leaked malloc blocks, with no suppressions). The catalogue's
///    probe is judged by rule 1 only: the runtime and test harness around it
///    leave blocks that are not the scenario's.
/// 3. A server fixture (Tools/ServerFixtures) prints `live T: N` at exit, its
///    own count of T's instances, all of them leaked once the server has
///    shut down: LeakLab's leaked instances of T are N. A server whose leak
///    is a task suspended for ever is judged by rule 3 only: memcheck sees
///    what such a task holds as reachable or lost depending on where the
///    task last ran (1 to 12 of 20 measured).
struct LeaksOracleRow: Sendable {
  /// A program to judge.
  struct Program: Sendable {
    var name: String
    var form: String
    var command: [String]
    /// The modules whose classes rule 1 compares.
    var modules: Set<String>
    /// Whether rule 1 applies.
    var comparesClasses: Bool
    /// Whether rule 2 applies.
    var comparesBlocks: Bool
    /// What memcheck runs: the same program, or a stripped copy of it
    /// (valgrind spends minutes on a SwiftNIO server's debug information).
    var memcheckCommand: [String]

    init(
      name: String, form: String, command: [String], modules: Set<String>, comparesBlocks: Bool,
      comparesClasses: Bool = true, memcheckCommand: [String]? = nil
    ) {
      self.name = name
      self.form = form
      self.command = command
      self.modules = modules
      self.comparesBlocks = comparesBlocks
      self.comparesClasses = comparesClasses
      self.memcheckCommand = memcheckCommand ?? command
    }
  }

  var program: Program
  /// Unreachable blocks, and the own modules' classes (qualified), as each judge saw them.
  var leaksBlocks: Int
  var leaksClasses: [String]
  var leaksCycles: Int
  var memcheckBlocks: Int
  var memcheckClasses: [String]
  /// The program's own `live T: N` lines, and LeakLab's leaked instances of each T.
  var liveCounts: [(type: String, live: Int, leaked: Int)] = []

  var agrees: Bool {
    (!program.comparesClasses || leaksClasses == memcheckClasses)
      && (!program.comparesBlocks || leaksBlocks == memcheckBlocks)
      && liveCounts.allSatisfy { $0.live == $0.leaked }
  }

  /// `3 blocks: FeedService, LoadFeedUseCase (1 cycle)`; `nothing`.
  var leaksColumn: String {
    Self.column(blocks: leaksBlocks, classes: leaksClasses, showBlocks: program.comparesBlocks)
      + (leaksCycles > 0 ? " (\(leaksCycles) cycle\(leaksCycles == 1 ? "" : "s"))" : "")
  }

  var memcheckColumn: String {
    Self.column(blocks: memcheckBlocks, classes: memcheckClasses, showBlocks: program.comparesBlocks)
  }

  /// `SessionHandler 20 = 20`: the program's own counts against LeakLab's; `-` when it prints none.
  var liveColumn: String {
    liveCounts.isEmpty
      ? "-" : liveCounts.map { "\($0.type) \($0.live) = \($0.leaked)" }.joined(separator: ", ")
  }

  private static func column(blocks: Int, classes: [String], showBlocks: Bool) -> String {
    let names = classes.map { QualifiedTypeName($0).name }
    var grouped: [String] = []
    for name in names where !grouped.contains(where: { $0 == name || $0.hasSuffix(" × \(name)") }) {
      let count = names.count { $0 == name }
      grouped.append(count == 1 ? name : "\(count) × \(name)")
    }
    let list = grouped.isEmpty ? (showBlocks ? "" : "none of its own") : grouped.joined(separator: ", ")
    guard showBlocks else { return list }
    if blocks == 0 { return "nothing" }
    return "\(blocks) block\(blocks == 1 ? "" : "s")" + (list.isEmpty ? "" : ": \(list)")
  }

  static func judge(_ program: Program, leaklab: String, memcheck: Memcheck) throws -> LeaksOracleRow {
    let (report, output) = try leaks(program, leaklab: leaklab)
    let run = try memcheck.run(
      program.memcheckCommand[0], arguments: Array(program.memcheckCommand.dropFirst()))
    let lost = run.records.filter { $0.kind == .definitelyLost || $0.kind == .indirectlyLost }
    var memcheckClasses: [String] = []
    for record in lost {
      guard let allocated = record.allocatedClass, program.modules.contains(allocated.module) else {
        continue
      }
      memcheckClasses += Array(repeating: allocated.description, count: record.blocks)
    }
    let leaksClasses = report.objects.compactMap { object -> String? in
      guard object.kind == "object", let qualified = object.qualifiedType,
        program.modules.contains(QualifiedTypeName(qualified).module)
      else { return nil }
      // memcheck names a class by its initializer, without generic arguments:
      // `PingTimer<KeepaliveTimer.View>` is compared as `PingTimer`.
      return String(qualified.prefix { $0 != "<" })
    }
    let liveCounts = LiveCountLines.parse(output).map { line in
      // `PingTimer<KeepaliveTimer.View>` is an instance of `PingTimer`.
      (
        line.type, line.live,
        leaksClasses.count { QualifiedTypeName($0).name.prefix { $0 != "<" } == line.type }
      )
    }
    return LeaksOracleRow(
      program: program, leaksBlocks: report.summary.leakedHeapBlocks, leaksClasses: leaksClasses.sorted(),
      leaksCycles: report.summary.retainCycles, memcheckBlocks: lost.reduce(0) { $0 + $1.blocks },
      memcheckClasses: memcheckClasses.sorted(), liveCounts: liveCounts)
  }

  /// `leaklab leaks --no-default-suppressions --json` on the program: the
  /// report, and what the program printed.
  private static func leaks(_ program: Program, leaklab: String) throws -> (Report, String) {
    let file = FileManager.default.temporaryDirectory.appendingPathComponent(
      "leaklab-oracle-\(UUID().uuidString).json")
    defer { try? FileManager.default.removeItem(at: file) }
    let process = Process()
    process.executableURL = URL(fileURLWithPath: leaklab)
    process.arguments =
      ["leaks", "--no-default-suppressions", "--json", "-o", file.path, "--"] + program.command
    let output = Pipe()
    process.standardOutput = output
    process.standardInput = FileHandle.nullDevice
    try process.run()
    let printed = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
    process.waitUntilExit()
    guard let data = try? Data(contentsOf: file),
      let report = try? JSONDecoder().decode(Report.self, from: data)
    else {
      throw Memcheck.Failure(
        description:
          "leaklab leaks failed on \(program.name) (\(program.form)) with status \(process.terminationStatus)"
      )
    }
    return (report, printed)
  }

  /// What the oracle reads of the JSON report (docs/leaks-json.md).
  private struct Report: Decodable {
    struct Summary: Decodable {
      var leakedHeapBlocks: Int
      var retainCycles: Int
    }
    struct Object: Decodable {
      var kind: String
      var qualifiedType: String?
    }
    var summary: Summary
    var objects: [Object]
  }
}
