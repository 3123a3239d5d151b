import Testing
import TextGrid

@Suite struct KeyTests {
  @Test(arguments: [
    (Key.character("q"), "q"), (.character(" "), "Space"), (.up, "↑"), (.down, "↓"), (.left, "←"),
    (.right, "→"),
    (.enter, "Enter"), (.escape, "Esc"), (.backspace, "Backspace"), (.tab, "Tab"), (.backTab, "Shift-Tab"),
    (.pageUp, "PgUp"), (.pageDown, "PgDn"), (.home, "Home"), (.end, "End"), (.delete, "Del"),
    (.function(5), "F5"), (.control("c"), "Ctrl-C"), (.resize, "Resize"),
  ])
  func keysHaveHumanReadableNames(key: Key, name: String) {
    #expect(key.name == name)
  }

  @Test func textDecodesControlCharactersAsKeys() {
    #expect(Key(text: "\r") == .enter)
    #expect(Key(text: "\n") == .enter)
    #expect(Key(text: "\t") == .tab)
    #expect(Key(text: "\u{7F}") == .backspace)
    #expect(Key(text: "\u{1B}") == .escape)
    #expect(Key(text: "\u{03}") == .control("c"))
    #expect(Key(text: "\u{1C}") == .control("\\"))
    #expect(Key(text: "é") == .character("é"))
  }
}
