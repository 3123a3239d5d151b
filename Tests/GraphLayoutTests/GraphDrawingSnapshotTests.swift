import GraphLayout
import LeakLabTestSupport
import Testing
import TextGrid

@Suite struct GraphDrawingSnapshotTests {
  @Test("Each shape drawn at 80×24 matches its snapshot", arguments: Shape.allCases)
  func drawnAt80Columns(_ shape: Shape) {
    let grid = shape.graph.draw(fitting: Size(width: 80, height: 24))
    expectSnapshot(of: grid, named: "\(shape.rawValue)-80x24")
  }

  @Test("Each shape drawn at 200×50 matches its snapshot", arguments: Shape.allCases)
  func drawnAt200Columns(_ shape: Shape) {
    let grid = shape.graph.draw(fitting: Size(width: 200, height: 50))
    expectSnapshot(of: grid, named: "\(shape.rawValue)-200x50")
  }

  @Test("Styles of each shape at 80×24 match their snapshot", arguments: Shape.allCases)
  func stylesAt80Columns(_ shape: Shape) {
    let grid = shape.graph.draw(fitting: Size(width: 80, height: 24))
    expectSnapshot(of: grid, named: "\(shape.rawValue)-80x24-styled", styled: true)
  }
}
