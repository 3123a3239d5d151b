import Testing

@testable import LeakLab

/// `leaklab --help` lists the app's keys from the key map, not from a hand-written copy.
@Suite struct HelpCommandTests {
  @Test(arguments: [["--help"], ["app", "--help"]])
  func theHelpPrintsTheKeyMapsTable(arguments: [String]) throws {
    let help = try LeakLabBinary.run(arguments)
    #expect(help.status == 0)
    #expect(help.output.contains(KeyMap.standard.plainTextTable(width: 78)), "\(help.output)")
    for binding in KeyMap.standard.bindings {
      #expect(help.output.contains(binding.keyLabel))
    }
  }
}

/// Every command answers `--help` and `-h` with its own usage, including
/// `leaks`, whose program arguments would otherwise swallow the flag.
@Suite struct CommandHelpTests {
  @Test(
    arguments: ["list", "check", "explain", "run", "oracle", "leaks", "leaks-oracle"]
      + (LeakLabBinary.hasLint ? ["lint"] : []))
  func everyCommandPrintsItsUsage(command: String) throws {
    for flag in ["--help", "-h"] {
      let help = try LeakLabBinary.run([command, flag])
      #expect(help.status == 0, "\(command) \(flag): \(help.error)")
      #expect(help.output.contains("USAGE: leaklab \(command)"), "\(command) \(flag): \(help.output)")
    }
  }
}
