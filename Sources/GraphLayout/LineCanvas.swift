import TextGrid

/// Lines drawn cell by cell, joined where they meet: each cell remembers in
/// which directions lines leave it, so two lines meeting become `┬`, `┼`, `┘`…
///
/// Straight runs keep their pen's character (dashed for a weak edge, heavy
/// for the culprit); corners and junctions use light or heavy box drawing.
struct LineCanvas {
  /// Directions a line leaves a cell in.
  struct Directions: OptionSet, Hashable {
    let rawValue: UInt8
    static let up = Directions(rawValue: 1)
    static let down = Directions(rawValue: 2)
    static let left = Directions(rawValue: 4)
    static let right = Directions(rawValue: 8)
  }

  private struct Mark {
    var directions: Directions
    var pen: EdgePen
  }

  private var marks: [Point: Mark] = [:]

  /// The rightmost and bottom-most cell used, plus one.
  private(set) var extent = Size.zero

  /// Draws a straight line from `start` to `end` (same row or same column), both ends included.
  mutating func line(from start: Point, to end: Point, pen: EdgePen) {
    if start == end {
      mark(start, [], pen: pen)
    } else if start.y == end.y {
      let (a, b) = (min(start.x, end.x), max(start.x, end.x))
      for x in a...b {
        var directions: Directions = []
        if x > a { directions.insert(.left) }
        if x < b { directions.insert(.right) }
        mark(Point(x: x, y: start.y), directions, pen: pen)
      }
    } else if start.x == end.x {
      let (a, b) = (min(start.y, end.y), max(start.y, end.y))
      for y in a...b {
        var directions: Directions = []
        if y > a { directions.insert(.up) }
        if y < b { directions.insert(.down) }
        mark(Point(x: start.x, y: y), directions, pen: pen)
      }
    }
  }

  /// Draws a path through `points`, each leg straight.
  mutating func path(_ points: [Point], pen: EdgePen) {
    for (a, b) in zip(points, points.dropFirst()) { line(from: a, to: b, pen: pen) }
  }

  /// Adds `directions` to the cell at `point`; the latest pen wins unless it is the shared one.
  mutating func mark(_ point: Point, _ directions: Directions, pen: EdgePen) {
    if var existing = marks[point] {
      existing.directions.formUnion(directions)
      if pen != .shared { existing.pen = pen }
      marks[point] = existing
    } else {
      marks[point] = Mark(directions: directions, pen: pen)
    }
    extent = Size(width: max(extent.width, point.x + 1), height: max(extent.height, point.y + 1))
  }

  /// Whether a line passes through `point`.
  func isMarked(_ point: Point) -> Bool { marks[point] != nil }

  /// Draws every line onto `grid`.
  func render(on grid: inout Grid) {
    for (point, mark) in marks {
      grid.put(String(Self.character(mark.directions, pen: mark.pen)), at: point, style: mark.pen.style)
    }
  }

  static func character(_ directions: Directions, pen: EdgePen) -> Character {
    let vertical: Directions = [.up, .down]
    let horizontal: Directions = [.left, .right]
    if directions.isSubset(of: vertical) { return pen.vertical }
    if directions.isSubset(of: horizontal) { return pen.horizontal }
    let table = pen.isHeavy ? heavy : light
    return table[Int(directions.rawValue)]
  }

  // Indexed by Directions.rawValue: up 1, down 2, left 4, right 8.
  private static let light: [Character] = [
    " ", "│", "│", "│", "─", "┘", "┐", "┤", "─", "└", "┌", "├", "─", "┴", "┬", "┼",
  ]
  private static let heavy: [Character] = [
    " ", "┃", "┃", "┃", "━", "┛", "┓", "┫", "━", "┗", "┏", "┣", "━", "┻", "┳", "╋",
  ]
}
