import Testing
import TextGrid

@testable import TerminalAutomation

/// How the terminal step driver types a script's keys into tmux.
@Suite struct TmuxKeyNameTests {
  @Test func scriptKeysHaveTheirTmuxNames() {
    let keys: [(Key, String)] = [
      (.character("w"), "w"), (.character(" "), "Space"), (.up, "Up"), (.escape, "Escape"),
      (.backspace, "BSpace"), (.enter, "Enter"), (.control("c"), "C-c"), (.function(5), "F5"),
    ]
    for (key, name) in keys {
      #expect(TerminalStepDriver.tmuxName(key) == name, "\(key)")
    }
    #expect(TerminalStepDriver.tmuxName(.resize) == nil)
  }
}
