import Scenarios
import TextGrid

/// The strong and weak forms side by side (`s`): the lines the fix changes
/// in two columns, marked `●` (the leaky ones in the alert style, the fixed
/// ones in the success style), with two shared lines around each change;
/// shared lines further away fold into one row (`⋯ 6 lines both forms
/// share`). It scrolls like the explain view.
///
/// ```
/// ┌─ Strong and weak, side by side ──────────────────────────────────────────────┐
/// │ Delayed dispatch — Fix: Capture `[weak self]`: …                             │
/// │                                                                              │
/// │ strong (leaky)                        │ weak (fixed)                         │
/// │   func syncLater() {                  │   func syncLater() {                 │
/// │●    mainQueue.asyncAfter(.seconds(10))│●    mainQueue.asyncAfter(.seconds(10)│
/// │       { self.statusLabel.text = … }   │       { [weak self] in self?.…     } │
/// ```
enum ComparisonView {
  static func draw(_ state: AppState, in area: Rect, on grid: inout Grid) {
    let frame = ExplainView.frame(for: { width, _ in content(state, width: width).height }, in: area)
    grid.fill(area)
    grid.drawBox(frame.box, title: "Strong and weak, side by side", style: .title, titleStyle: .title)
    ScrollView.draw(
      content(state, width: frame.viewport.width), in: frame.viewport, box: frame.box,
      at: state.comparisonScroll, on: &grid)
    grid.put(
      "↑↓ PgUp PgDn scroll · w switches the form that runs · Esc or s closes", at: frame.footer.origin,
      style: .muted, maxWidth: frame.footer.width)
  }

  /// Everything the view shows at `width` columns.
  static func content(_ state: AppState, width: Int) -> Grid {
    guard let entry = state.shownEntry else { return Grid(lines: [("No scenario selected.", .muted)]) }
    var rows: [[(String, Style)]] = []
    for line in TextWrapping.words("\(entry.title) — Fix: \(entry.fix)", width: width) {
      rows.append([(line, .success)])
    }
    rows.append([])
    let column = max(8, (width - 3) / 2)
    let runs = entry.mode == .strong ? "runs now" : "w switches to it"
    let other = entry.mode == .weak ? "runs now" : "w switches to it"
    rows.append([
      ("strong (leaky, \(runs))".padded(toWidth: column), .alert), (" │ ", .muted),
      ("weak (fixed, \(other))", .success),
    ])
    rows.append([
      (String(repeating: "─", count: column) + "─┼─" + String(repeating: "─", count: column), .muted)
    ])
    for hunk in withContext(hunks(entry.code.lines)) {
      if let hidden = hunk.hiddenLines {
        rows.append([("  ⋯ \(hidden) line\(hidden == 1 ? "" : "s") both forms share", .muted)])
        continue
      }
      let left = wrapped(
        hunk.strong, width: column, style: hunk.isChange ? .alert : .plain, marked: hunk.isChange)
      let right = wrapped(
        hunk.weak, width: column, style: hunk.isChange ? .success : .plain, marked: hunk.isChange)
      for index in 0..<max(left.count, right.count) {
        let leftText = index < left.count ? left[index] : ("", Style.plain)
        let rightText = index < right.count ? right[index] : ("", Style.plain)
        rows.append([(leftText.0.padded(toWidth: column), leftText.1), (" │ ", .muted), rightText])
      }
    }
    var grid = Grid(size: Size(width: max(1, width), height: max(1, rows.count)))
    for (y, segments) in rows.enumerated() {
      var x = 0
      for (text, style) in segments { x += grid.put(text, at: Point(x: x, y: y), style: style) }
    }
    return grid
  }

  /// Lines both forms share, or a change: the strong form's lines beside the weak form's.
  struct Hunk: Equatable {
    var strong: [String]
    var weak: [String]
    var isChange: Bool
    /// For a fold of shared lines far from any change: how many it hides.
    var hiddenLines: Int? = nil
  }

  /// How many shared lines are kept on each side of a change.
  static let context = 2

  /// The hunks with the shared lines more than ``context`` lines away from a
  /// change folded into one row each.
  static func withContext(_ hunks: [Hunk]) -> [Hunk] {
    let changes = hunks.indices.filter { hunks[$0].isChange }
    guard !changes.isEmpty else { return hunks }
    var result: [Hunk] = []
    var hidden = 0
    for (index, hunk) in hunks.enumerated() {
      let isNear = hunk.isChange || changes.contains { abs($0 - index) <= context }
      if isNear {
        if hidden > 0 { result.append(Hunk(strong: [], weak: [], isChange: false, hiddenLines: hidden)) }
        hidden = 0
        result.append(hunk)
      } else {
        hidden += 1
      }
    }
    if hidden > 0 { result.append(Hunk(strong: [], weak: [], isChange: false, hiddenLines: hidden)) }
    return result
  }

  /// The code cut into shared lines and changes, in order.
  static func hunks(_ lines: [CodeExcerpt.Line]) -> [Hunk] {
    var hunks: [Hunk] = []
    for line in lines {
      switch line.role {
      case .common:
        hunks.append(Hunk(strong: [line.text], weak: [line.text], isChange: false))
      case .strong, .weak:
        if hunks.last?.isChange != true { hunks.append(Hunk(strong: [], weak: [], isChange: true)) }
        if line.role == .strong { hunks[hunks.count - 1].strong.append(line.text) }
        if line.role == .weak { hunks[hunks.count - 1].weak.append(line.text) }
      }
    }
    return hunks
  }

  /// Each line broken to the column (a gutter of two: `● ` on changed lines).
  private static func wrapped(_ lines: [String], width: Int, style: Style, marked: Bool) -> [(String, Style)]
  {
    lines.flatMap { line in
      TextWrapping.code(line, width: max(1, width - 2)).enumerated().map { index, part in
        ((index == 0 && marked ? "● " : "  ") + part, style)
      }
    }
  }
}
