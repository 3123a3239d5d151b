import Foundation
import LeakLabTestSupport
import Testing

/// `leaklab oracle` and the probe it runs under valgrind, as a user runs them.
@Suite struct OracleCommandTests {
  static let hasValgrind = (ProcessInfo.processInfo.environment["PATH"] ?? "").split(separator: ":").contains
  {
    FileManager.default.isExecutableFile(atPath: "\($0)/valgrind")
  }

  /// Runs `LeakLabProbe`, built beside `leaklab`, outside valgrind.
  func probe(_ arguments: [String]) throws -> (status: Int32, output: String, error: String) {
    let path = URL(fileURLWithPath: LeakLabBinary.path).deletingLastPathComponent()
      .appendingPathComponent("LeakLabProbe").path
    return try LeakLabBinary.run(arguments, executable: path)
  }

  @Test func anUnknownScenarioIsAOneLineErrorWithStatusTwo() throws {
    let run = try LeakLabBinary.run(["oracle", "no-such-scenario"])
    #expect(run.status == 2)
    #expect(run.error == "leaklab: unknown scenario \"no-such-scenario\" (see leaklab list)\n")
  }

  @Test func theProbePrintsTheDetectorsClaimAsJSON() throws {
    let strong = try probe(["strong-delegate", "--mode", "strong"])
    #expect(strong.status == 0)
    #expect(strong.output.contains("\"label\":\"Leaked: CheckoutScreen#1\""))
    #expect(strong.output.contains("\"isOpen\":true"))
    let weak = try probe(["strong-delegate", "--mode", "weak"])
    #expect(weak.output.contains("\"leaks\":[]"))
  }

  @Test func aTemporaryLeakIsResolvedInTheProbesClaimAtTheEnd() throws {
    let end = try probe(["delayed-dispatch", "--until", "end"])
    #expect(end.output.contains("\"label\":\"No issues detected\""))
    #expect(end.output.contains("\"isOpen\":false"))
  }

  @Test func theProbeRejectsBadArgumentsWithStatusTwo() throws {
    #expect(try probe(["no-such-scenario"]).status == 2)
    let badMode = try probe(["strong-delegate", "--mode", "sideways"])
    #expect(badMode.status == 2)
    #expect(badMode.error == "LeakLabProbe: unknown mode \"sideways\"\n")
  }

  // valgrind cannot run a program built with a sanitizer: both replace malloc
  // and take over the address space.
  @Test(
    .enabled(if: hasValgrind, "needs valgrind"),
    .disabled(if: Sanitizers.active != nil, "valgrind cannot run a sanitizer's runtime"))
  func memcheckAgreesWithBothFormsOfAScenario() throws {
    let run = try LeakLabBinary.run(["oracle", "strong-delegate"])
    #expect(run.status == 0, "\(run.output)\(run.error)")
    #expect(run.output.contains("unreachable: CheckoutScreen"))
    #expect(run.output.hasSuffix("2 of 2 runs: LeakLab and memcheck agree.\n"))
  }
}

/// Usage errors the argument parser finds: one line, status 2, like all bad input.
@Suite struct UsageErrorTests {
  @Test(arguments: [
    (["bogus"], "leaklab: Unexpected argument 'bogus' (see leaklab --help)\n"),
    (
      ["explain", "closure-capture", "--mode", "medium"],
      "leaklab: The value 'medium' is invalid for '--mode <mode>'. Please provide one of 'strong' and 'weak'."
        + " (see leaklab --help)\n"
    ),
    (["run"], "leaklab: Missing expected argument '<files> ...' (see leaklab --help)\n"),
  ])
  func aUsageErrorIsOneLineWithStatusTwo(arguments: [String], message: String) throws {
    let run = try LeakLabBinary.run(arguments)
    #expect(run.status == 2)
    #expect(run.error == message)
    #expect(run.output.isEmpty)
  }

  @Test func helpAndVersionStillExitZero() throws {
    #expect(try LeakLabBinary.run(["--version"]).status == 0)
    let help = try LeakLabBinary.run(["--help"])
    #expect(help.status == 0)
    #expect(help.output.contains("SUBCOMMANDS:"))
  }
}
