import Scenarios
import TextGrid

/// The scenario's code in the mode that runs, the lines that differ between
/// strong and weak marked with `●` (strong in the alert style, weak in the
/// success style), then the other form's lines marked `○`, dimmed. The line
/// `leaklab lint` flags is marked `▶`, and the bottom row (two when one is too
/// narrow) says what the lint found beside the live verdict (``ScenarioLint``).
///
/// Long lines wrap (continuations indented under their line), so the fix is
/// never cut. The pane scrolls; until the user scrolls it, it shows the
/// marked line.
///
/// ```
/// ┌─ Code · strong (leaky) ────────────┐
/// │  func load() {                     │
/// │●   service.run(completion:         │
/// │        handleResponse)             │
/// │  }                                 │
/// │                                    │
/// │○ weak form (w switches):           │
/// │○ service.run { [weak self] in … }  │
/// ```
enum CodePaneView {
  /// The pane's lines at `width` columns and the rows of the marked lines.
  struct Content {
    var lines: [(String, Style)]
    var markedRows: Range<Int>
  }

  static func draw(_ state: AppState, in area: Rect, on grid: inout Grid) {
    guard let entry = state.shownEntry else {
      grid.drawBox(area, title: "Code", style: border(state), titleStyle: .title)
      return
    }
    let mode = state.openScenario?.mode ?? entry.mode
    let inner = grid.drawBox(
      area, title: "Code · \(mode.rawValue) (\(mode.prose))", style: border(state), titleStyle: .title)
    guard inner.width > 2, inner.height > 0 else { return }
    let content = Self.content(state, width: inner.width)
    let status = lintStatus(state, entry: entry, mode: mode, width: inner.width, height: inner.height)
    let code = codeArea(state, inner: inner)
    ScrollView.draw(
      Grid(lines: content.lines), in: code, box: area,
      at: position(state, content: content, viewport: code.size), on: &grid)
    for (row, line) in status.enumerated() {
      grid.put(
        line.0.truncated(toWidth: inner.width), at: Point(x: inner.minX, y: code.maxY + row), style: line.1,
        maxWidth: inner.width)
    }
  }

  /// The part of the pane's inside the code scrolls in: all of it but the lint's rows.
  static func codeArea(_ state: AppState, inner: Rect) -> Rect {
    guard let entry = state.shownEntry else { return inner }
    let mode = state.openScenario?.mode ?? entry.mode
    let rows = lintStatus(state, entry: entry, mode: mode, width: inner.width, height: inner.height).count
    return Rect(x: inner.minX, y: inner.minY, width: inner.width, height: inner.height - rows)
  }

  /// The lint's finding beside the live verdict, for catalogue scenarios: one
  /// row, or split at the dash and word-wrapped when one is too narrow.
  static func lintStatus(
    _ state: AppState, entry: CatalogueEntry, mode: ScenarioMode, width: Int, height: Int
  )
    -> [(String, Style)]
  {
    guard let lint = ScenarioLint(entry: entry, mode: mode), height > 2 else { return [] }
    let style: Style =
      switch lint.isConfirmed(in: state) {
      case true?: lint.findings.isEmpty ? .success : .alert
      case false?: .warning
      case nil: .muted
      }
    let text = lint.status(in: state)
    guard text.displayWidth > width, height >= 6 else { return [(text, style)] }
    // Split at the dash, each part word-wrapped: never cut (at most a third of the pane).
    let lines = text.components(separatedBy: " — ").enumerated().flatMap { index, part in
      TextWrapping.words(index == 0 ? part : "— " + part, width: width, cutsLongWords: false)
    }
    return lines.prefix(max(2, height / 3)).map { ($0, style) }
  }

  /// The user's scroll position, or the one that shows the marked lines.
  static func position(_ state: AppState, content: Content, viewport: Size) -> ScrollPosition {
    if let stored = state.scroll[.code] { return stored }
    guard content.lines.count > viewport.height, !content.markedRows.isEmpty else { return .top }
    let room = max(0, viewport.height - content.markedRows.count)
    return ScrollPosition(y: max(0, content.markedRows.lowerBound - room / 3))
  }

  static func content(_ state: AppState, width: Int) -> Content {
    guard let entry = state.shownEntry else { return Content(lines: [], markedRows: 0..<0) }
    let mode = state.openScenario?.mode ?? entry.mode
    let marked: Style = mode == .strong ? .alert : .success
    var lines: [(String, Style)] = []
    var markedRows: [Int] = []
    let flagged = ScenarioLint(entry: entry, mode: mode)?.flaggedLines ?? []
    for line in entry.code.lines(for: mode) {
      let isFlagged = flagged.contains(line.text.trimmingLeadingSpaces)
      let isMarked = line.role != .common || isFlagged
      let wrapped = TextWrapping.code(line.text, width: width - 2)
      for (index, part) in wrapped.enumerated() {
        if isMarked { markedRows.append(lines.count) }
        let gutter = index == 0 && isMarked ? (isFlagged ? "▶ " : "● ") : "  "
        lines.append((gutter + part, isFlagged ? .alert : isMarked ? marked : .plain))
      }
    }
    let other = entry.code.lines.filter { $0.role.rawValue == mode.toggled.rawValue }
    if !other.isEmpty {
      lines.append(("", .plain))
      let heading = "○ \(mode.toggled.rawValue) form (w switches, s compares):"
      lines += TextWrapping.words(heading, width: width, restWidth: max(1, width - 2)).enumerated().map {
        (($0.offset == 0 ? "" : "  ") + $0.element, .muted)
      }
      for line in other {
        for (index, part) in TextWrapping.code(line.text.trimmingLeadingSpaces, width: width - 2).enumerated()
        {
          lines.append(((index == 0 ? "○ " : "  ") + part, .muted))
        }
      }
    }
    let rows = (markedRows.first ?? 0)..<((markedRows.last ?? -1) + 1)
    return Content(lines: lines, markedRows: rows)
  }

  static func border(_ state: AppState) -> Style {
    state.focus == .code ? .focused : .muted
  }
}

extension String {
  fileprivate var trimmingLeadingSpaces: String {
    String(drop { $0 == " " })
  }
}

extension Style {
  /// The border of the pane with the keyboard focus.
  static let focused = Style(foreground: .cyan, attributes: .bold)
}
