import Foundation
import ProcessLeaks

/// One growth fixture judged by `leaklab heap` against the program's own
/// count of its live instances (counted in `init` and `deinit`).
///
/// Rules, for the leaky form (one instance kept per request) and the fixed
/// form (a bounded number kept):
/// 1. At exit (`leaklab heap -- PROGRAM FORM --requests 37`), the census
///    counts exactly what the program printed (`live TYPE: N`), and that is
///    37 leaky, the fixed form's bound fixed.
/// 2. Running (`--serve`, `leaklab heap --pid`): after 50 requests, a
///    census; after `requests` more, a diff. Leaky: the type grew by exactly
///    `requests`, all of them new instances, and the path to one starts at
///    the program's global and ends at the type. Fixed: none of the
///    program's types grew, and the exit status (gated on them) is 0.
/// 3. The process still answers afterwards and exits 0.
struct HeapOracleRun: Sendable {
  /// A growth fixture: which type it keeps and in which global.
  struct Program: Sendable {
    var name: String
    var form: String
    var executable: String
    var arguments: [String]
    /// The program's module, its kept class and the global that keeps it.
    var module: String
    var type: String
    var global: String
    /// What the fixed form keeps.
    var fixedKeeps: Int

    var isLeaky: Bool { form == "leaky" }
    var qualifiedType: String { "\(module).\(type)" }
  }

  var program: Program
  /// The census's count at exit and the program's own.
  var censusAtExit: Int?
  var programAtExit: Int?
  /// The diff: the type's growth, its new instances, the path to one.
  var growth: Int?
  var newInstances: Int?
  var path: [String]?
  var grownProgramTypes: [String] = []
  var diffStatus: Int32?
  /// Whether the process answered after the censuses and exited 0.
  var answeredAfter = false
  var problems: [String] = []

  var agrees: Bool { problems.isEmpty }

  static let requestsAtExit = 37

  /// Judges `program` with the `leaklab` at `leaklab`, `requests` requests between the censuses.
  static func judge(_ program: Program, leaklab: String, requests: Int) -> HeapOracleRun {
    var run = HeapOracleRun(program: program)
    do {
      try run.checkAtExit(leaklab: leaklab)
      try run.checkRunning(leaklab: leaklab, requests: requests)
    } catch {
      run.problems.append("\(error)")
    }
    return run
  }

  private mutating func checkAtExit(leaklab: String) throws {
    let (status, document, output) = try Self.census(
      leaklab, ["--", program.executable] + program.arguments + ["--requests", "\(Self.requestsAtExit)"])
    censusAtExit = try document.census.count(ofType: program.qualifiedType)
    programAtExit = LiveCountLines.parse(output).last { $0.type == program.type }?.live
    let expected = program.isLeaky ? Self.requestsAtExit : program.fixedKeeps
    if status != 0 { problems.append("leaklab heap at exit: status \(status)") }
    if censusAtExit != programAtExit || programAtExit != expected {
      problems.append(
        "at exit: census \(censusAtExit.map(String.init) ?? "-"), program \(programAtExit.map(String.init) ?? "-"), "
          + "expected \(expected)")
    }
  }

  private mutating func checkRunning(leaklab: String, requests: Int) throws {
    let fixture = try ServedProgram(program.executable, arguments: program.arguments + ["--serve"])
    defer { fixture.stop() }
    guard try fixture.handle(50) == 50 else { throw OracleFailure("the program did not serve 50 requests") }
    let before = FileManager.default.temporaryDirectory.appendingPathComponent(
      "leaklab-heap-oracle-\(UUID().uuidString).json")
    defer { try? FileManager.default.removeItem(at: before) }
    let first = try Self.run(leaklab, ["heap", "--pid", "\(fixture.pid)", "--json", "-o", before.path])
    guard first == 0 else { throw OracleFailure("leaklab heap --pid: status \(first)") }
    guard try fixture.handle(requests) == 50 + requests else {
      throw OracleFailure("the program did not serve \(requests) more requests")
    }
    let (status, document, _) = try Self.census(
      leaklab, ["--pid", "\(fixture.pid)", "--diff-from", before.path, "--gate", "\(program.module).*"])
    diffStatus = status
    let diff = document.diff
    let change = diff?.grown.first { $0.key == "object \(program.qualifiedType)" }
    growth = change?.growth
    newInstances = change?.newInstances
    path = change?.path
    grownProgramTypes = diff?.grown.filter(\.programType).map(\.name) ?? []
    answeredAfter = try fixture.handle(1) == 51 + requests && fixture.finish() == 0
    if !answeredAfter { problems.append("the program did not answer after the censuses, or failed") }
    if program.isLeaky {
      if growth != requests || newInstances != requests {
        problems.append(
          "grew by \(growth.map(String.init) ?? "-") (\(newInstances.map(String.init) ?? "-") new)")
      }
      // `global auditTrail in M`, or `global auditTrail + 8 in M` (a Mutex's value after its lock).
      let root = path?.first ?? ""
      let fromTheGlobal =
        root.hasPrefix("global \(program.global) ") && root.hasSuffix(" in \(program.module)")
      if !fromTheGlobal || path?.last?.hasSuffix(": \(program.type)") != true {
        problems.append("path: \(path?.joined(separator: " → ") ?? "none")")
      }
      if status != 1 { problems.append("diff status \(status), expected 1") }
    } else {
      if !grownProgramTypes.isEmpty { problems.append("grew: \(grownProgramTypes.joined(separator: ", "))") }
      if status != 0 { problems.append("diff status \(status), expected 0") }
    }
  }

  // MARK: Columns

  var exitColumn: String {
    guard let censusAtExit, let programAtExit else { return "-" }
    return censusAtExit == programAtExit
      ? "\(censusAtExit) = \(programAtExit)" : "\(censusAtExit) ≠ \(programAtExit)"
  }

  var diffColumn: String {
    guard diffStatus != nil else { return "-" }
    if program.isLeaky {
      return "+\(growth ?? 0) \(program.type) (\(newInstances ?? 0) new)"
    }
    return grownProgramTypes.isEmpty
      ? "nothing of its own grew" : "grew: \(grownProgramTypes.joined(separator: ", "))"
  }

  var pathColumn: String {
    guard let path, path.count >= 2 else { return program.isLeaky ? "none" : "-" }
    return "\(path[0]) → … → \(path[path.count - 1])"
  }

  // MARK: Running leaklab

  /// `leaklab heap --json -o FILE ARGUMENTS`: the status, the document and the program's output.
  static func census(_ leaklab: String, _ arguments: [String]) throws -> (Int32, CensusDocument, String) {
    let file = FileManager.default.temporaryDirectory.appendingPathComponent(
      "leaklab-heap-oracle-\(UUID().uuidString).json")
    defer { try? FileManager.default.removeItem(at: file) }
    let process = Process()
    process.executableURL = URL(fileURLWithPath: leaklab)
    process.arguments = ["heap", "--json", "-o", file.path] + arguments
    let output = Pipe()
    process.standardOutput = output
    process.standardInput = FileHandle.nullDevice
    try process.run()
    let text = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
    process.waitUntilExit()
    guard let data = FileManager.default.contents(atPath: file.path) else {
      throw OracleFailure(
        "leaklab heap \(arguments.joined(separator: " ")): status \(process.terminationStatus)")
    }
    return (process.terminationStatus, try CensusDocument.decode(data), text)
  }

  static func run(_ executable: String, _ arguments: [String]) throws -> Int32 {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: executable)
    process.arguments = arguments
    process.standardOutput = FileHandle.nullDevice
    process.standardInput = FileHandle.nullDevice
    try process.run()
    process.waitUntilExit()
    return process.terminationStatus
  }
}

/// Why a run could not be judged.
struct OracleFailure: Error, CustomStringConvertible {
  var description: String
  init(_ description: String) { self.description = description }
}

/// A fixture started with `--serve`: it says `ready`, then handles the
/// number of requests written on each line of its input and says `served
/// TOTAL` (GrowingHeap also its live count); end of input ends it.
final class ServedProgram: @unchecked Sendable {
  // @unchecked: used from one thread, the one that judges its program.
  private let process = Process()
  private let input = Pipe()
  private let output = Pipe()
  private var pending = Data()

  var pid: Int32 { process.processIdentifier }

  init(_ executable: String, arguments: [String]) throws {
    process.executableURL = URL(fileURLWithPath: executable)
    process.arguments = arguments
    process.standardInput = input
    process.standardOutput = output
    process.standardError = FileHandle.nullDevice
    try process.run()
    guard try line(startingWith: "ready") == "ready" else {
      throw OracleFailure("the program never said ready")
    }
  }

  /// Sends `count` requests; returns the total the program says it served.
  func handle(_ count: Int) throws -> Int {
    input.fileHandleForWriting.write(Data("\(count)\n".utf8))
    let served = try line(startingWith: "served ")
    return Int(served.dropFirst("served ".count)) ?? -1
  }

  /// Ends the input and waits for the program to exit; returns its status.
  func finish() throws -> Int32 {
    try input.fileHandleForWriting.close()
    _ = output.fileHandleForReading.readDataToEndOfFile()
    process.waitUntilExit()
    return process.terminationStatus
  }

  func stop() {
    if process.isRunning { process.terminate() }
  }

  /// The next line that starts with `prefix` (a blocking read: the program
  /// answers every batch; its end of output ends the wait with an error).
  private func line(startingWith prefix: String) throws -> String {
    while true {
      if let newline = pending.firstIndex(of: UInt8(ascii: "\n")) {
        let text = String(decoding: pending[..<newline], as: UTF8.self)
        pending.removeSubrange(...newline)
        if text.hasPrefix(prefix) { return text }
        continue
      }
      let chunk = output.fileHandleForReading.availableData
      guard !chunk.isEmpty else { throw OracleFailure("the program's output ended before \"\(prefix)…\"") }
      pending += chunk
    }
  }
}
