import LeakLabTestSupport
import Testing
import TextGrid

@Suite struct GridTests {
  @Test func aNewGridIsBlankAndPrintsAsEmptyLines() {
    let grid = Grid(size: Size(width: 4, height: 2))
    #expect(grid.cells.count == 8)
    #expect(grid[3, 1] == .blank)
    #expect(grid.lines == ["", ""])
  }

  // MARK: put

  @Test func putWritesTextAndReturnsTheColumnsUsed() {
    var grid = Grid(size: Size(width: 10, height: 1))
    let used = grid.put("leak", at: Point(x: 2, y: 0), style: .alert)
    #expect(used == 4)
    #expect(grid.lines == ["  leak"])
    #expect(grid[2, 0] == Cell("l", style: .alert))
  }

  @Test func putClipsAtTheRightEdgeOfTheGrid() {
    var grid = Grid(size: Size(width: 5, height: 1))
    #expect(grid.put("retain cycle", at: Point(x: 1, y: 0)) == 4)
    #expect(grid.lines == [" reta"])
  }

  @Test func putClipsToMaxWidth() {
    var grid = Grid(size: Size(width: 10, height: 1))
    #expect(grid.put("abcdef", at: .zero, maxWidth: 3) == 3)
    #expect(grid.lines == ["abc"])
  }

  @Test func putOutsideTheRowsOrFromLeftOfTheGridDrawsOnlyWhatIsVisible() {
    var grid = Grid(size: Size(width: 4, height: 1))
    #expect(grid.put("x", at: Point(x: 0, y: 1)) == 0)
    #expect(grid.put("abcdef", at: Point(x: -2, y: 0)) == 6)
    #expect(grid.lines == ["cdef"])
  }

  @Test func wideCharactersTakeTwoCellsWithAContinuation() {
    var grid = Grid(size: Size(width: 6, height: 1))
    #expect(grid.put("漢字x", at: .zero) == 5)
    #expect(grid[0, 0].character == "漢")
    #expect(grid[1, 0].isContinuation)
    #expect(grid[2, 0].character == "字")
    #expect(grid[4, 0].character == "x")
    #expect(grid.lines == ["漢字x"])
  }

  @Test func aWideCharacterThatDoesNotFitBecomesASpace() {
    var grid = Grid(size: Size(width: 3, height: 1))
    #expect(grid.put("a漢字", at: .zero) == 3)
    #expect(grid.lines == ["a漢"])
    #expect(grid.put("ab漢", at: .zero) == 3)
    #expect(grid.lines == ["ab"])
    #expect(!grid[2, 0].isContinuation)
  }

  @Test func overwritingHalfAWideCharacterBlanksTheOtherHalf() {
    var grid = Grid(size: Size(width: 4, height: 1))
    grid.put("漢字", at: .zero)
    grid.put("x", at: Point(x: 1, y: 0))
    #expect(grid.lines == [" x字"])
    grid.put("y", at: Point(x: 2, y: 0))
    #expect(grid.lines == [" xy"])
    #expect(grid.cells.allSatisfy { !$0.isContinuation })
  }

  @Test func emojiAndCombiningAccentsTakeTheirDisplayWidth() {
    var grid = Grid(size: Size(width: 10, height: 1))
    #expect(grid.put("🐛e\u{301}!", at: .zero) == 4)
    #expect(grid.lines == ["🐛é!"])
  }

  @Test func controlCharactersAreShownAsReplacementCharacters() {
    var grid = Grid(size: Size(width: 10, height: 1))
    #expect(grid.put("a\tb\nc", at: .zero) == 5)
    #expect(grid.lines == ["a\u{FFFD}b\u{FFFD}c"])
  }

  // MARK: fill and draw

  @Test func fillPaintsTheClippedRectangle() {
    var grid = Grid(size: Size(width: 4, height: 3))
    grid.fill(Rect(x: 2, y: 1, width: 5, height: 5), with: "#", style: .selected)
    #expect(grid.lines == ["", "  ##", "  ##"])
    #expect(grid[3, 2].style == .selected)
  }

  @Test func fillWithAWideCharacterLeavesNoHalfCharacter() {
    var grid = Grid(size: Size(width: 5, height: 1))
    grid.fill(grid.bounds, with: "漢")
    #expect(grid.lines == ["漢漢"])
  }

  @Test func drawCopiesAnotherGridClipped() {
    var panel = Grid(size: Size(width: 3, height: 2))
    panel.put("abc", at: .zero)
    panel.put("漢x", at: Point(x: 0, y: 1))
    var grid = Grid(size: Size(width: 4, height: 2))
    grid.draw(panel, at: Point(x: 2, y: 0))
    #expect(grid.lines == ["  ab", "  漢"])
  }

  // MARK: Boxes

  @Test func aBoxHasCornersEdgesAndATitle() {
    var grid = Grid(size: Size(width: 16, height: 4))
    let inner = grid.drawBox(grid.bounds, title: "Detector")
    #expect(inner == Rect(x: 1, y: 1, width: 14, height: 2))
    grid.put("No issues", at: inner.origin)
    #expect(
      grid.lines == [
        "┌─ Detector ───┐",
        "│No issues     │",
        "│              │",
        "└──────────────┘",
      ])
  }

  @Test func aLongTitleIsCutWithAnEllipsis() {
    var grid = Grid(size: Size(width: 12, height: 2))
    grid.drawBox(grid.bounds, title: "NotificationObserver")
    #expect(grid.lines == ["┌─ Notif… ─┐", "└──────────┘"])
  }

  @Test func theAsciiBorderDrawsWithPlusMinusAndBar() {
    var grid = Grid(size: Size(width: 10, height: 3))
    grid.drawBox(grid.bounds, title: "Log", border: .ascii)
    #expect(grid.lines == ["+- Log --+", "|        |", "+--------+"])
  }

  @Test func aBoxSmallerThanTwoByTwoDrawsNothing() {
    var grid = Grid(size: Size(width: 3, height: 3))
    let inner = grid.drawBox(Rect(x: 0, y: 0, width: 1, height: 3))
    #expect(inner.isEmpty)
    #expect(grid.lines == ["", "", ""])
  }

  // MARK: Snapshots

  @Test func aPhoneScreenLayoutMatchesItsSnapshot() {
    var grid = Grid(size: Size(width: 40, height: 10))
    let (status, body) = grid.bounds.divided(atDistance: 1, from: .bottom)
    let (list, phone) = body.divided(atDistance: 16, from: .left)
    let listInner = grid.drawBox(list, title: "Scenarios")
    grid.put("closure capture", at: listInner.origin, style: .selected, maxWidth: listInner.width)
    grid.put("delegate", at: listInner.origin.offsetBy(dy: 1))
    grid.put("通知 observer", at: listInner.origin.offsetBy(dy: 2))
    let phoneInner = grid.drawBox(phone, title: "Phone", border: .rounded)
    let alert = phoneInner.centered(Size(width: 18, height: 4))
    grid.fill(alert)
    let alertInner = grid.drawBox(alert, title: "Alert 🐛")
    grid.put("Delete item?", at: alertInner.origin)
    grid.put("Leaked: AlertScreen#1", at: status.origin, style: .alert)
    expectSnapshot(of: grid, named: "phone-layout")
    expectSnapshot(of: grid, named: "phone-layout-styled", styled: true)
  }

  @Test func styledLinesMarkRunsOfNonPlainStyle() {
    var grid = Grid(size: Size(width: 20, height: 1))
    grid.put("Leaked:", at: .zero, style: .alert)
    grid.put("A#1", at: Point(x: 8, y: 0))
    grid.fill(Rect(x: 12, y: 0, width: 3, height: 1), style: Style(background: .blue))
    #expect(grid.styledLines == ["[bold red]Leaked:[/] A#1 [on blue]   [/]"])
    #expect(grid.description == "Leaked: A#1")
  }
}
