import Testing
import TextGrid

@Suite struct DisplayWidthTests {
  @Test(
    arguments: [
      ("a", 1), ("é", 1), ("e\u{301}", 1), ("─", 1), ("…", 1), ("↑", 1),
      ("漢", 2), ("カ", 2), ("한", 2), ("Ａ", 2), ("🐛", 2), ("👍🏽", 2), ("\u{301}", 0), ("\u{200B}", 0),
    ] as [(Character, Int)])
  func charactersTakeTheirTerminalWidth(character: Character, width: Int) {
    #expect(character.displayWidth == width)
  }

  @Test func controlCharactersTakeNoColumns() {
    #expect(Unicode.Scalar(0x07)!.displayWidth == 0)
    #expect(Unicode.Scalar(0x9B)!.displayWidth == 0)
  }

  @Test func aStringIsAsWideAsItsCharacters() {
    #expect("🐛 bug".displayWidth == 6)
    #expect("漢字 ok".displayWidth == 7)
    #expect("".displayWidth == 0)
  }

  @Test func truncatedCutsByColumnsAndAddsAnEllipsis() {
    #expect("NotificationObserverScreen".truncated(toWidth: 12) == "Notificatio…")
    #expect("漢字テスト".truncated(toWidth: 5) == "漢字…")
    #expect("short".truncated(toWidth: 5) == "short")
    #expect("short".truncated(toWidth: 0) == "")
  }

  @Test func paddedFillsColumnsNotCharacters() {
    #expect("id".padded(toWidth: 4) == "id  ")
    #expect("漢字".padded(toWidth: 6) == "漢字  ")
    #expect("longer".padded(toWidth: 3) == "longer")
    #expect("".padded(toWidth: 2) == "  ")
  }
}
