import GraphLayout
import Testing
import TextGrid

@Suite struct GraphDrawingTests {
  private static let heads: Set<Character> = ["▼", "▲", "▶", "◀", "▽", "△", "▷", "◁"]

  private func cells(of grid: Grid) -> [(point: Point, cell: Cell)] {
    (0..<grid.height).flatMap { y in (0..<grid.width).map { x in (Point(x: x, y: y), grid[x, y]) } }
  }

  // MARK: Every node and every edge is drawn

  @Test("Every node's title and every edge's label appear in the drawing", arguments: Shape.allCases)
  func everythingIsDrawn(_ shape: Shape) {
    for size in [Size(width: 80, height: 24), Size(width: 200, height: 50)] {
      let text = shape.graph.draw(fitting: size).description
      for node in shape.graph.nodes {
        #expect(text.contains(node.title), "\(node.title) missing at \(size)")
      }
      for edge in shape.graph.edges {
        #expect(text.contains(edge.caption), "\(edge.caption) missing at \(size)")
      }
    }
  }

  @Test("Each edge ends in exactly one arrowhead", arguments: Shape.allCases)
  func oneHeadPerEdge(_ shape: Shape) {
    for size in [Size(width: 80, height: 24), Size(width: 200, height: 50)] {
      let grid = shape.graph.draw(fitting: size)
      let heads = cells(of: grid).filter { Self.heads.contains($0.cell.character) }
      #expect(heads.count == shape.graph.edges.count, "at \(size):\n\(grid)")
    }
  }

  // MARK: Fitting the room

  @Test("At 80 columns every shape is drawn as a vertical loop no wider than 80", arguments: Shape.allCases)
  func verticalAt80Columns(_ shape: Shape) {
    let grid = shape.graph.draw(fitting: Size(width: 80, height: 24))
    #expect(grid.width <= 80)
    let titles = shape.graph.nodes.map(\.title)
    let rows = titles.compactMap { title in grid.lines.firstIndex { $0.contains(title) } }
    #expect(Set(rows).count == titles.count, "each box on rows of its own")
  }

  @Test("At 200×50 a cycle that fits is drawn in one row")
  func horizontalWhenRoomy() {
    let grid = Shape.threeNodeCycle.graph.draw(fitting: Size(width: 200, height: 50))
    let line = grid.lines.first { $0.contains("AlertController#1") } ?? ""
    #expect(line.contains("AlertAction#1") && line.contains("closure"))
    #expect(grid.height <= 8)
  }

  @Test("At 200×50 a six-node cycle too wide for one row is a ring of two rows, closed on the left")
  func ringWhenRoomy() {
    let grid = Shape.sixNodeCycle.graph.draw(fitting: Size(width: 200, height: 50))
    let lines = grid.lines
    let top = lines.first { $0.contains("ProfileScreen#1") } ?? ""
    let bottom = lines.first { $0.contains("ProfileRouter#1") } ?? ""
    #expect(top.contains("ProfilePresenter#1") && top.contains("ProfileInteractor#1"))
    #expect(bottom.contains("closure") && bottom.contains("ProfileService#1"))
    #expect(top.hasPrefix("┏") && top.contains("━▶│ ProfileScreen#1"))
    #expect(bottom.contains("│◀─ captures[0] (strong) ─┤"))
    #expect(lines.last?.hasPrefix("┗━") == true)
    #expect(grid.height <= 12)
  }

  @Test("A graph that is not a chain is stacked even when asked for a row")
  func branchesAreStacked() {
    let grid = Shape.manyEdges.graph.draw(fitting: Size(width: 400, height: 100), orientation: .horizontal)
    let titles = Shape.manyEdges.graph.nodes.map(\.title)
    let rows = titles.compactMap { title in grid.lines.firstIndex { $0.contains(title) } }
    #expect(Set(rows).count == titles.count)
  }

  @Test("A drawing larger than the room keeps everything, for the caller to scroll")
  func tooSmallKeepsEverything() {
    let graph = Shape.sixNodeCycle.graph
    let grid = graph.draw(fitting: Size(width: 30, height: 10))
    #expect(grid.height > 10)
    for node in graph.nodes { #expect(grid.description.contains(node.title.prefix(10))) }
  }

  @Test("An empty graph draws nothing")
  func emptyGraph() {
    #expect(ReferenceGraph().draw(fitting: Size(width: 80, height: 24)).size == .zero)
  }

  // MARK: How strengths look

  @Test("The culprit is heavy and bold red; the other strong edges light and plain")
  func culpritStyle() {
    let grid = Shape.threeNodeCycle.graph.draw(fitting: Size(width: 80, height: 24))
    let heavy = cells(of: grid).filter { "┃━┛┗┓┏".contains($0.cell.character) }
    #expect(!heavy.isEmpty)
    #expect(heavy.allSatisfy { $0.cell.style == Style(foreground: .red, attributes: .bold) })
    let light = cells(of: grid).filter { $0.cell.character == "│" && $0.point.x == 2 }
    #expect(!light.isEmpty)
    #expect(light.allSatisfy { $0.cell.style == .plain })
    #expect(grid.description.contains("┗━"))
  }

  @Test("Weak, unowned and unmanaged edges are dashed with hollow heads and dim")
  func notStrongEdges() {
    let grid = Shape.manyEdges.graph.draw(fitting: Size(width: 80, height: 24))
    for (label, dash) in [
      ("coordinator (weak)", "╌"), ("session (unowned)", "┄"), ("cache (unmanaged)", "┈"),
    ] {
      let line = grid.lines.first { $0.contains(label) }
      #expect(line?.contains("\(dash)▷") == true, "\(label)")
    }
    let hollow = cells(of: grid).filter { $0.cell.character == "▷" }
    #expect(hollow.count == 3)
    #expect(hollow.allSatisfy { $0.cell.style.attributes.contains(.dim) })
  }

  @Test("A conservative hop is broken and heavy, and says so")
  func conservativeHop() {
    let grid = Shape.rootPathToCycle.graph.draw(fitting: Size(width: 80, height: 24))
    #expect(grid.description.contains("┇ word 3 (conservative)"))
  }

  @Test("Roots have a double border, closures round corners, leaked objects a caption")
  func nodeMarks() {
    let text = Shape.rootPathToCycle.graph.draw(fitting: Size(width: 80, height: 24)).description
    #expect(text.contains("╔═════════════ root ═╗"))
    #expect(text.contains("╭─▼"))
    #expect(text.contains(" leaked ─┐"))
  }

  // MARK: The legend

  @Test("The legend lists the strengths the graph uses and the culprit, wrapped to the width")
  func legend() {
    let legend = Shape.manyEdges.graph.legend(width: 200)
    #expect(
      legend.lines == ["│ strong  ╎ weak  ┆ unowned  ┊ unmanaged  ┃ culprit: the reference to break"])
    let narrow = Shape.manyEdges.graph.legend(width: 30)
    #expect(narrow.height > 1)
    #expect(narrow.width <= 30 || narrow.lines.allSatisfy { !$0.contains("  ") || $0.displayWidth <= 33 })
    #expect(
      Shape.rootPathToCycle.graph.legend(width: 80).lines == [
        "│ strong  ┇ conservative  ┃ culprit: the reference to break"
      ])
  }
}
