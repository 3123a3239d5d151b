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
struct LeaksOracleRow: Sendable {
  /// A program to judge.
  struct Program: Sendable {
    var name: String
    var form: String
    var command: [String]
    /// The modules whose classes rule 1 compares.
    var modules: Set<String>
    /// Whether rule 2 applies.
    var isFixture: Bool { !name.hasPrefix("catalogue: ") }
  }

  var program: Program
  /// Unreachable blocks, and the own modules' classes (qualified), as each judge saw them.
  var leaksBlocks: Int
  var leaksClasses: [String]
  var leaksCycles: Int
  var memcheckBlocks: Int
  var memcheckClasses: [String]

  var agrees: Bool {
    leaksClasses == memcheckClasses && (!program.isFixture || leaksBlocks == memcheckBlocks)
  }

  /// `3 blocks: FeedService, LoadFeedUseCase (1 cycle)`; `nothing`.
  var leaksColumn: String {
    Self.column(blocks: leaksBlocks, classes: leaksClasses, showBlocks: program.isFixture)
      + (leaksCycles > 0 ? " (\(leaksCycles) cycle\(leaksCycles == 1 ? "" : "s"))" : "")
  }

  var memcheckColumn: String {
    Self.column(blocks: memcheckBlocks, classes: memcheckClasses, showBlocks: program.isFixture)
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
    let report = try leaks(program, leaklab: leaklab)
    let run = try memcheck.run(program.command[0], arguments: Array(program.command.dropFirst()))
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
      return qualified
    }
    return LeaksOracleRow(
      program: program, leaksBlocks: report.summary.leakedHeapBlocks, leaksClasses: leaksClasses.sorted(),
      leaksCycles: report.summary.retainCycles, memcheckBlocks: lost.reduce(0) { $0 + $1.blocks },
      memcheckClasses: memcheckClasses.sorted())
  }

  /// `leaklab leaks --no-default-suppressions --json` on the program.
  private static func leaks(_ program: Program, leaklab: String) throws -> Report {
    let file = FileManager.default.temporaryDirectory.appendingPathComponent(
      "leaklab-oracle-\(UUID().uuidString).json")
    defer { try? FileManager.default.removeItem(at: file) }
    let process = Process()
    process.executableURL = URL(fileURLWithPath: leaklab)
    process.arguments =
      ["leaks", "--no-default-suppressions", "--json", "-o", file.path, "--"] + program.command
    process.standardOutput = FileHandle.nullDevice
    process.standardInput = FileHandle.nullDevice
    try process.run()
    process.waitUntilExit()
    guard let data = try? Data(contentsOf: file),
      let report = try? JSONDecoder().decode(Report.self, from: data)
    else {
      throw Memcheck.Failure(
        description:
          "leaklab leaks failed on \(program.name) (\(program.form)) with status \(process.terminationStatus)"
      )
    }
    return report
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
