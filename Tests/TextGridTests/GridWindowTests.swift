import Testing
import TextGrid

/// A window onto content larger than the area it is drawn in (scrolling panes).
@Suite struct GridWindowTests {
  let content = Grid(lines: [("0123456789", .plain), ("abcdefghij", .muted), ("ABCDEFGHIJ", .alert)])

  @Test func linesMakeAGridAsWideAsTheLongestLine() {
    #expect(content.size == Size(width: 10, height: 3))
    #expect(Grid(lines: []).size == Size(width: 1, height: 1))
    #expect(content[0, 1] == Cell("a", style: .muted))
  }

  @Test func theWindowAtAnOffsetIsCopiedIntoTheRect() {
    var grid = Grid(size: Size(width: 6, height: 3))
    grid.draw(content, from: Point(x: 3, y: 1), in: Rect(x: 1, y: 1, width: 4, height: 2))
    #expect(grid.lines == ["", " defg", " DEFG"])
    #expect(grid[1, 2] == Cell("D", style: .alert))
  }

  @Test func contentShorterThanTheRectLeavesTheRestAlone() {
    var grid = Grid(size: Size(width: 4, height: 3))
    grid.fill(grid.bounds, with: ".")
    grid.draw(content, from: Point(x: 8, y: 2), in: grid.bounds)
    #expect(grid.lines == ["IJ..", "....", "...."])
  }

  @Test func aWideCharacterCutByTheWindowShowsAsASpace() {
    let wide = Grid(lines: [("a漢b", .plain)])
    var grid = Grid(size: Size(width: 3, height: 1))
    grid.draw(wide, from: Point(x: 2, y: 0), in: grid.bounds)
    #expect(grid.lines == [" b"])
    var right = Grid(size: Size(width: 2, height: 1))
    right.draw(wide, from: .zero, in: right.bounds)
    #expect(right.lines == ["a"])
  }

  @Test func aRectOutsideTheGridDrawsNothing() {
    var grid = Grid(size: Size(width: 3, height: 1))
    grid.draw(content, from: .zero, in: Rect(x: 5, y: 5, width: 3, height: 3))
    #expect(grid.lines == [""])
  }
}
