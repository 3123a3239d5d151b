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
