import Foundation
import LeakLabTestSupport
import Testing

/// A report that was not written is an error: one line on stderr (when it can
/// be written) and status 74; an error message that cannot be written never
/// crashes the program. Every command, through the real binary.
@Suite struct OutputFailureTests {
  static let script = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
    .appendingPathComponent("../../Scenarios/Scripts/closure-capture.strong.leaklab").standardized.path

  static let sources = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
    .appendingPathComponent("../../Sources/LeakClock").standardized.path

  static let commands: [[String]] =
    [
      ["list"], ["check"], ["check", "--json"], ["explain", "closure-capture"],
      ["explain", "closure-capture", "--format", "json"],
      ["explain", "closure-capture", "--format", "dot"],
      ["explain", "closure-capture", "--format", "mermaid"],
      ["run", script], ["--help"], ["--version"],
    ] + (LeakLabBinary.hasLint ? [["lint", sources]] : [])

  @Test(arguments: commands)
  func aFullDiskIsAnErrorWithStatus74(arguments: [String]) throws {
    let run = try LeakLabBinary.run(arguments, stdout: .file("/dev/full"))
    #expect(run.status == 74)
    #expect(run.error.hasSuffix("leaklab: cannot write the output: No space left on device\n"))
  }

  @Test(arguments: commands)
  func aClosedStdoutIsAnErrorWithStatus74(arguments: [String]) throws {
    let run = try LeakLabBinary.run(arguments, stdout: .closed)
    #expect(run.status == 74)
    #expect(run.error.hasSuffix("leaklab: cannot write the output: Bad file descriptor\n"))
  }

  @Test(arguments: commands)
  func aReaderThatWentAwayIsAnErrorNotASilentSignal(arguments: [String]) throws {
    let run = try LeakLabBinary.run(arguments, stdout: .brokenPipe)
    #expect(!run.signalled)
    #expect(run.status == 74)
    #expect(run.error.hasSuffix("leaklab: cannot write the output: Broken pipe\n"))
  }

  /// The oracle runs valgrind first (a few seconds), then cannot write its table.
  @Test(
    .enabled(if: OracleCommandTests.hasValgrind, "needs valgrind"),
    .disabled(if: Sanitizers.active != nil, "valgrind cannot run a sanitizer's runtime"))
  func theOraclesReportThatCannotBeWrittenIsAnError() throws {
    let run = try LeakLabBinary.run(
      ["oracle", "strong-delegate", "--mode", "weak"], stdout: .file("/dev/full"))
    #expect(run.status == 74)
    #expect(run.error.hasSuffix("leaklab: cannot write the output: No space left on device\n"))
  }

  @Test func errorsWithAFullOrClosedStderrStillExitWithTheirStatus() throws {
    for destination in [LeakLabBinary.Destination.file("/dev/full"), .closed] {
      let usage = try LeakLabBinary.run(["bogus"], stderr: destination)
      #expect(!usage.signalled)
      #expect(usage.status == 2)
      let unknown = try LeakLabBinary.run(["explain", "nope"], stderr: destination)
      #expect(!unknown.signalled)
      #expect(unknown.status == 2)
      let missing = try LeakLabBinary.run(["run", "/nonexistent.leaklab"], stderr: destination)
      #expect(!missing.signalled)
      #expect(missing.status == 2)
      let noTerminal = try LeakLabBinary.run([], stderr: destination)
      #expect(!noTerminal.signalled)
      #expect(noTerminal.status == 2)
    }
  }
}
