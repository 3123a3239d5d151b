import CNcurses
import Testing
import TextGrid

@testable import LeakLabTerminal

@MainActor
@Suite struct CursesMappingTests {
  // MARK: Keys

  @Test(arguments: [
    (KEY_UP, Key.up), (KEY_DOWN, .down), (KEY_LEFT, .left), (KEY_RIGHT, .right), (KEY_ENTER, .enter),
    (KEY_BACKSPACE, .backspace), (KEY_BTAB, .backTab), (KEY_PPAGE, .pageUp), (KEY_NPAGE, .pageDown),
    (KEY_HOME, .home), (KEY_END, .end), (KEY_DC, .delete), (KEY_RESIZE, .resize), (KEY_F0 + 5, .function(5)),
  ])
  func keyCodesDecodeToKeys(code: Int32, key: Key) {
    #expect(Key(keyCode: code) == key)
  }

  @Test func textAndTimeoutsDecodeToCharactersOrNothing() {
    #expect(Key(cursesResult: OK, value: wint_t(UInt8(ascii: "q"))) == .character("q"))
    #expect(Key(cursesResult: OK, value: 0x0D) == .enter)
    #expect(Key(cursesResult: KEY_CODE_YES, value: wint_t(KEY_UP)) == .up)
    #expect(Key(cursesResult: KEY_CODE_YES, value: wint_t(KEY_MOUSE)) == nil)
    #expect(Key(cursesResult: ERR, value: 0) == nil)
  }

  // MARK: Cells

  @Test func aCellSendsItsSpacingCharacterAndCombiningMarksOnly() {
    #expect(ScreenPainter.wideCharacters(of: "a") == [0x61])
    #expect(ScreenPainter.wideCharacters(of: "e\u{301}") == [0x65, 0x301])
    #expect(ScreenPainter.wideCharacters(of: "👨‍👩‍👧") == [0x1F468])
    #expect(ScreenPainter.wideCharacters(of: "❤️") == [0x2764, 0xFE0F])
  }

  @Test func withoutUTF8BoxDrawingAndArrowsBecomeAscii() {
    let standIns = "┌─┐│└┘↑é…".map { Character(Unicode.Scalar(UInt32(ScreenPainter.asciiStandIn(for: $0)))!) }
    #expect(String(standIns) == "+-+|++^?.")
  }

  @Test func monochromeDropsColoursAndReversesBackgrounds() {
    let colors = ColorPairs(mode: .monochrome, usesDefaultColors: false)
    let bold = cn_attributes(true, false, false, false)
    let reverse = cn_attributes(false, false, true, false)
    #expect(colors.resolve(.alert) == (bold, 0))
    #expect(colors.resolve(Style(foreground: .white, background: .blue)) == (reverse, 0))
  }

  // MARK: The too-small frame

  @Test func theTooSmallFrameNamesBothSizes() {
    let grid = Terminal.tooSmallFrame(size: Size(width: 30, height: 5), minimum: Size(width: 40, height: 10))
    #expect(
      grid.lines == [
        "",
        "      Terminal too small",
        "      30×5, needs 40×10",
        "      enlarge the window",
        "",
      ])
  }

  @Test func theTooSmallFrameNamesTheQuitKey() {
    let grid = Terminal.tooSmallFrame(
      size: Size(width: 30, height: 3), minimum: Size(width: 40, height: 10), quitKey: .character("q"))
    #expect(grid.lines.last == "    enlarge it, or q quits")
  }

  // MARK: Keys while the terminal is too small

  @Test func belowTheMinimumOnlyAResizeReachesTheAppAndTheQuitKeysQuit() {
    let quitKeys: [Key] = [.character("q"), .control("c")]
    #expect(Terminal.route(.enter, fits: false, quitKeys: quitKeys) == .ignore)
    #expect(Terminal.route(.character("1"), fits: false, quitKeys: quitKeys) == .ignore)
    #expect(Terminal.route(.resize, fits: false, quitKeys: quitKeys) == .app)
    #expect(Terminal.route(.character("q"), fits: false, quitKeys: quitKeys) == .quit)
    #expect(Terminal.route(.control("c"), fits: false, quitKeys: quitKeys) == .quit)
  }

  @Test func atTheMinimumEveryKeyReachesTheApp() {
    #expect(Terminal.route(.enter, fits: true, quitKeys: [.character("q")]) == .app)
    #expect(Terminal.route(.character("q"), fits: true, quitKeys: [.character("q")]) == .app)
  }

  @Test func theTooSmallFrameFitsATinyTerminal() {
    let grid = Terminal.tooSmallFrame(size: Size(width: 8, height: 1), minimum: Size(width: 80, height: 24))
    #expect(grid.lines == ["Termina…"])
  }
}
