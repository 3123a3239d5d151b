import Foundation
import LeakLabTestSupport

/// Runs the real `leaklab leaks` (and the leak fixtures) the way a user does.
enum LeaksCommand {
  static let leaklab = builtExecutable(named: "leaklab")

  /// A built leak fixture's path.
  static func fixture(_ name: String) -> String { builtExecutable(named: name) }

  /// What one run printed and how it ended.
  struct Run {
    var status: Int32
    var output: String
    var error: String
  }

  /// Runs `executable` with `arguments`; `input` is written to its standard input.
  static func run(_ arguments: [String], executable: String = leaklab, input: String = "") throws -> Run {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: executable)
    process.arguments = arguments
    let output = Pipe()
    let error = Pipe()
    let stdin = Pipe()
    process.standardOutput = output
    process.standardError = error
    process.standardInput = stdin
    try process.run()
    stdin.fileHandleForWriting.write(Data(input.utf8))
    try stdin.fileHandleForWriting.close()
    let out = output.fileHandleForReading.readDataToEndOfFile()
    let err = error.fileHandleForReading.readDataToEndOfFile()
    process.waitUntilExit()
    return Run(
      status: process.terminationStatus, output: String(decoding: out, as: UTF8.self),
      error: String(decoding: err, as: UTF8.self))
  }

  /// `leaklab leaks --json -o FILE OPTIONS -- PROGRAM ARGS`: the status and the decoded report.
  static func json(_ program: [String], options: [String] = []) throws -> (status: Int32, report: Report) {
    let file = FileManager.default.temporaryDirectory.appendingPathComponent(
      "leaks-\(UUID().uuidString).json")
    defer { try? FileManager.default.removeItem(at: file) }
    let run = try run(["leaks", "--json", "-o", file.path] + options + ["--"] + program)
    let report = try JSONDecoder().decode(Report.self, from: Data(contentsOf: file))
    return (run.status, report)
  }

  /// The parts of the JSON report (docs/leaks-json.md) the tests read.
  struct Report: Decodable {
    struct Process: Decodable {
      var pid: Int32
      var mode: String
      var exitStatus: Int32?
    }
    struct Summary: Decodable {
      var leakedObjects: Int
      var leakedBytes: Int
      var retainCycles: Int
      var suppressedBlocks: Int
    }
    struct Object: Decodable, Sendable {
      var id: Int
      var kind: String
      var type: String
      var qualifiedType: String?
      var programType: Bool
      var references: [Reference]
      var allocation: Allocation?
    }
    /// `objects[].allocation` (with `--stacks`).
    struct Allocation: Decodable, Sendable {
      struct Frame: Decodable, Sendable {
        var function: String
        var file: String?
        var line: Int?
        var programCode: Bool
      }
      var summary: String
      var programFrame: Int?
      var frames: [Frame]

      /// The program's frame the summary names.
      var site: Frame? { programFrame.map { frames[$0] } }
    }
    struct Reference: Decodable {
      var to: Int
      var label: String
      var strength: String
      var conservative: Bool
      var closure: String?
    }
    struct Cycle: Decodable {
      var root: Int
      var members: [Int]
    }
    struct Reachable: Decodable {
      var type: String
      var path: [String]
    }
    /// `kinds[]`: one kind of leak.
    struct Kind: Decodable {
      var signature: String
      var count: Int
    }

    var schema: Int
    var process: Process
    var summary: Summary
    var objects: [Object]
    var cycles: [Cycle]
    var reachable: [Reachable]
    var kinds: [Kind]

    /// The types of the program's own leaked objects, sorted.
    var programTypes: [String] { objects.filter(\.programType).map(\.type).sorted() }

    /// Every reference between two members of a cycle: `label → Type`.
    var cycleEdges: Set<String> {
      var edges = Set<String>()
      for cycle in cycles {
        let members = Set(cycle.members)
        for member in cycle.members {
          for reference in objects[member].references where members.contains(reference.to) {
            edges.insert("\(reference.label) → \(objects[reference.to].type)")
          }
        }
      }
      return edges
    }
  }
}
