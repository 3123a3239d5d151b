import Testing
import TextGrid

@Suite struct RectTests {
  let screen = Rect(size: Size(width: 80, height: 24))

  @Test func dividedCutsASliceFromEachEdge() {
    #expect(
      screen.divided(atDistance: 1, from: .top) == (
        Rect(x: 0, y: 0, width: 80, height: 1), Rect(x: 0, y: 1, width: 80, height: 23)
      ))
    #expect(
      screen.divided(atDistance: 1, from: .bottom) == (
        Rect(x: 0, y: 23, width: 80, height: 1), Rect(x: 0, y: 0, width: 80, height: 23)
      ))
    #expect(
      screen.divided(atDistance: 30, from: .left) == (
        Rect(x: 0, y: 0, width: 30, height: 24), Rect(x: 30, y: 0, width: 50, height: 24)
      ))
    #expect(
      screen.divided(atDistance: 30, from: .right) == (
        Rect(x: 50, y: 0, width: 30, height: 24), Rect(x: 0, y: 0, width: 50, height: 24)
      ))
  }

  @Test func aSliceLargerThanTheRectangleLeavesAnEmptyRemainder() {
    let (slice, remainder) = screen.divided(atDistance: 100, from: .left)
    #expect(slice == screen)
    #expect(remainder.isEmpty)
  }

  @Test func insetShrinksEachSideButNeverBelowZero() {
    #expect(screen.inset(by: 1) == Rect(x: 1, y: 1, width: 78, height: 22))
    #expect(screen.inset(top: 2, left: 3) == Rect(x: 3, y: 2, width: 77, height: 22))
    #expect(Rect(x: 0, y: 0, width: 2, height: 2).inset(by: 5).isEmpty)
  }

  @Test func centeredPlacesASmallerRectangleInTheMiddle() {
    #expect(screen.centered(Size(width: 20, height: 4)) == Rect(x: 30, y: 10, width: 20, height: 4))
    #expect(screen.centered(Size(width: 200, height: 4)).width == 80)
  }

  @Test func intersectionAndContainment() {
    let a = Rect(x: 0, y: 0, width: 10, height: 10)
    let b = Rect(x: 5, y: 5, width: 10, height: 10)
    #expect(a.intersection(b) == Rect(x: 5, y: 5, width: 5, height: 5))
    #expect(a.intersection(Rect(x: 20, y: 20, width: 1, height: 1)).isEmpty)
    #expect(a.contains(Point(x: 9, y: 9)))
    #expect(!a.contains(Point(x: 10, y: 9)))
  }

  @Test func sizesClampNegativeValuesAndPrintWithATimesSign() {
    #expect(Size(width: -3, height: 2) == Size(width: 0, height: 2))
    #expect(Size(width: 80, height: 24).description == "80×24")
    #expect(Size(width: 40, height: 10).fits(in: Size(width: 80, height: 24)))
    #expect(!Size(width: 81, height: 10).fits(in: Size(width: 80, height: 24)))
  }
}
