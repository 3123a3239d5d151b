import TextGrid

/// How an edge is drawn: its line characters, arrowheads and style.
///
/// The strength is visible without colour: strong references are solid
/// lines with filled heads, weak / unowned / unmanaged ones dashed with
/// hollow heads, conservative hops broken heavy lines, and the culprit a
/// heavy line in the alert style (bold, so it stays marked under `NO_COLOR`).
struct EdgePen: Hashable, Sendable {
  /// The line along a column.
  var vertical: Character
  /// The line along a row.
  var horizontal: Character
  /// Whether corners and junctions are drawn heavy.
  var isHeavy: Bool
  /// The arrowheads.
  var heads: Heads
  /// The style of the line and its label.
  var style: Style

  /// Arrowheads pointing down, up, right and left.
  struct Heads: Hashable, Sendable {
    var down: Character
    var up: Character
    var right: Character
    var left: Character
  }

  private static let filled = Heads(down: "▼", up: "▲", right: "▶", left: "◀")
  private static let hollow = Heads(down: "▽", up: "△", right: "▷", left: "◁")

  /// The style of a culprit edge: bold red.
  static let culpritStyle = Style(foreground: .red, attributes: .bold)

  /// A light solid line: trunks shared by several edges.
  static let shared = EdgePen(vertical: "│", horizontal: "─", isHeavy: false, heads: filled, style: .plain)

  /// The pen for `edge`.
  static func pen(for edge: ReferenceGraph.Edge) -> EdgePen {
    if edge.isCulprit {
      return EdgePen(vertical: "┃", horizontal: "━", isHeavy: true, heads: filled, style: culpritStyle)
    }
    switch edge.strength {
    case .strong:
      return shared
    case .weak:
      return EdgePen(vertical: "╎", horizontal: "╌", isHeavy: false, heads: hollow, style: .muted)
    case .unowned:
      return EdgePen(vertical: "┆", horizontal: "┄", isHeavy: false, heads: hollow, style: .muted)
    case .unmanaged:
      return EdgePen(vertical: "┊", horizontal: "┈", isHeavy: false, heads: hollow, style: .muted)
    case .conservative:
      return EdgePen(
        vertical: "┇", horizontal: "┅", isHeavy: true, heads: filled, style: Style(foreground: .yellow))
    case .unknown:
      return EdgePen(vertical: "┊", horizontal: "┈", isHeavy: false, heads: filled, style: .plain)
    }
  }
}
