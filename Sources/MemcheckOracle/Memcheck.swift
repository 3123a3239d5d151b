import Foundation

/// Runs a program under valgrind memcheck and returns its leak report.
///
/// ```swift
/// guard let memcheck = Memcheck.locate() else { … }   // valgrind on PATH
/// let run = try memcheck.run("/path/to/program", arguments: ["--flag"])
/// run.records.filter { $0.kind.isUnreachable }
/// ```
///
/// The program runs 30–130 times slower than usual; its standard output is
/// returned, its standard error passes through.
public struct Memcheck: Sendable {
  /// The valgrind executable.
  public var valgrind: String

  /// Uses the valgrind at `valgrind`.
  public init(valgrind: String) {
    self.valgrind = valgrind
  }

  /// The valgrind found on `PATH`, or nil.
  public static func locate(path: String? = ProcessInfo.processInfo.environment["PATH"]) -> Memcheck? {
    for directory in (path ?? "").split(separator: ":") {
      let candidate = "\(directory)/valgrind"
      if FileManager.default.isExecutableFile(atPath: candidate) { return Memcheck(valgrind: candidate) }
    }
    return nil
  }

  /// What one run produced.
  public struct Run: Sendable {
    /// The program's standard output.
    public var output: String
    /// Its exit status.
    public var status: Int32
    /// Memcheck's loss records: every block still allocated at exit.
    public var records: [LossRecord]
  }

  /// The failure of a run.
  public struct Failure: Error, CustomStringConvertible {
    public var description: String

    public init(description: String) {
      self.description = description
    }
  }

  /// Runs `executable` with `arguments` under memcheck, with a full leak check
  /// that lists every kind of block, until it exits.
  public func run(_ executable: String, arguments: [String]) throws -> Run {
    let log = FileManager.default.temporaryDirectory
      .appendingPathComponent("leaklab-memcheck-\(UUID().uuidString).log")
    defer { try? FileManager.default.removeItem(at: log) }
    let process = Process()
    process.executableURL = URL(fileURLWithPath: valgrind)
    process.arguments =
      [
        "--tool=memcheck", "--leak-check=full", "--show-leak-kinds=all", "--num-callers=12",
        "--log-file=\(log.path)",
      ] + [executable] + arguments
    let output = Pipe()
    process.standardOutput = output
    process.standardInput = FileHandle.nullDevice
    do {
      try process.run()
    } catch {
      throw Failure(description: "cannot start \(valgrind): \(error.localizedDescription)")
    }
    let data = output.fileHandleForReading.readDataToEndOfFile()
    process.waitUntilExit()
    guard let text = try? String(contentsOf: log, encoding: .utf8) else {
      throw Failure(description: "valgrind wrote no log for \(executable)")
    }
    if text.contains("VALGRIND INTERNAL ERROR") || text.contains("the 'impossible' happened") {
      throw Failure(description: "valgrind crashed running \(executable) \(arguments.joined(separator: " "))")
    }
    return Run(
      output: String(decoding: data, as: UTF8.self), status: process.terminationStatus,
      records: LossRecord.parse(log: text))
  }
}
