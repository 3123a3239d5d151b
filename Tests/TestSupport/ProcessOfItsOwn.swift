import Foundation
import Testing

/// Suites whose answer depends on what else lives in the process (paths
/// from true roots, conservative reachability) run in a process of their
/// own: the test bundle started again with only that suite, nothing else
/// allocating beside it.
///
/// The suite carries the trait, and one test elsewhere runs it:
///
/// ```swift
/// @Suite(.serialized, .inProcessOfItsOwn("MemoryRootPathTests")) struct MemoryRootPathTests { … }
///
/// @Test(.runsSuitesAlone) func memoryRootPathTestsPassInAProcessOfTheirOwn() throws {
///   try ProcessOfItsOwn.expectPasses("RetainGraphTests.MemoryRootPathTests")
/// }
/// ```
public enum ProcessOfItsOwn {
  static let variable = "LEAKLAB_SUITE_ALONE"

  /// Whether this process was started to run `suite` alone.
  public static func isRunning(_ suite: String) -> Bool {
    ProcessInfo.processInfo.environment[variable].map { $0 == suite || $0.hasSuffix(".\(suite)") } ?? false
  }

  /// Whether this process was started to run a suite alone.
  public static var isChild: Bool { ProcessInfo.processInfo.environment[variable] != nil }

  /// Runs `suite` (`Target.Suite`) in a new process of
  /// this test bundle under Swift Testing, and records its failures here:
  /// the child's status must be 0 and at least one of its tests must have run.
  public static func expectPasses(_ suite: String, sourceLocation: SourceLocation = #_sourceLocation) throws {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: "/proc/self/exe").resolvingSymlinksInPath()
    process.arguments = ["--testing-library", "swift-testing", "--filter", suite]
    process.environment = ProcessInfo.processInfo.environment.merging([variable: suite]) { $1 }
    let output = Pipe()
    process.standardOutput = output
    process.standardError = output
    process.standardInput = FileHandle.nullDevice
    try process.run()
    let text = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
    process.waitUntilExit()
    let ran = text.contains("Test run with ") && !text.contains("Test run with 0 tests")
    #expect(
      process.terminationStatus == 0 && ran, "\(suite) in a process of its own:\n\(failures(in: text))",
      sourceLocation: sourceLocation)
  }

  /// The lines of a Swift Testing run that say what failed, each issue with
  /// its comment (the lines after it up to the next event), or all of it.
  static func failures(in output: String) -> String {
    var lines: [Substring] = []
    var inIssue = false
    for line in output.split(separator: "\n") {
      let isEvent = ["◇", "✔", "✘", "➜", "━"].contains { line.contains($0) }
      if line.contains("✘") || line.contains("recorded an issue") {
        lines.append(line)
        inIssue = line.contains("recorded an issue")
      } else if inIssue, !isEvent {
        lines.append(line)
      } else {
        inIssue = false
      }
    }
    return lines.isEmpty ? output : lines.joined(separator: "\n")
  }
}

extension Trait where Self == ConditionTrait {
  /// Runs the suite only in a process started for it alone (see ``ProcessOfItsOwn``).
  public static func inProcessOfItsOwn(_ suite: String) -> Self {
    .enabled(if: ProcessOfItsOwn.isRunning(suite), "runs in a process of its own (ProcessOfItsOwn)")
  }

  /// Runs the test that starts suites alone only in the bundle's own
  /// process, never in a process started for one suite.
  public static var runsSuitesAlone: Self {
    .enabled(if: !ProcessOfItsOwn.isChild, "starts suites in processes of their own")
  }
}
