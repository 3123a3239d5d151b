import GraphLayout
import HeapModel
import ProcessLeaks
import TextGrid

/// Draws `leaklab watch` for a terminal of `size`: a pure function of the state.
///
/// The header says what is watched and how long the last snapshot stopped
/// it; the types pane (count, change since the mark, bytes, a chart of the
/// recent counts) takes the top; the leaks and the selected type's
/// instances share the bottom; the status bar comes from ``KeyMap/watch``.
///
/// ```swift
/// let grid = renderWatch(state, size: Size(width: 80, height: 24))
/// ```
public func renderWatch(_ state: WatchState, size: Size) -> Grid {
  var grid = Grid(size: size)
  let focusName = WatchView.focusName(state)
  let barHeight = StatusBarView.height(focusName: focusName, notice: state.notice, width: size.width)
  let (bar, screen) = Rect(size: size).divided(atDistance: barHeight, from: .bottom)
  let (header, body) = screen.divided(atDistance: 1, from: .top)
  WatchView.drawHeader(state, in: header, on: &grid)
  let (top, bottom) = body.divided(atDistance: max(8, body.height * 11 / 20), from: .top)
  WatchView.drawTypes(state, in: top, on: &grid)
  let (left, right) = bottom.divided(atDistance: bottom.width / 2, from: .left)
  WatchView.drawLeaks(state, in: left, on: &grid)
  WatchView.drawInstances(state, in: right, on: &grid)
  StatusBarView.draw(
    focusName: focusName, notice: state.notice, hints: state.keyMap.statusHints(in: state.keyContext),
    in: bar, on: &grid)
  if state.explanation != nil { WatchExplainView.draw(state, in: body, on: &grid) }
  if state.isHelpVisible { HelpOverlayView.draw(state.keyMap, scroll: state.helpScroll, in: body, on: &grid) }
  return grid
}

enum WatchView {
  static func focusName(_ state: WatchState) -> String {
    switch state.keyContext {
    case .help: "Help"
    case .filtering: "Filter /\(state.filter)▏"
    case .explain: "Why alive"
    default: state.focus.rawValue
    }
  }

  /// `GrowingHeap (pid 4242) · running · snapshot 5 every 2 s · stopped 41 ms`.
  static func drawHeader(_ state: WatchState, in area: Rect, on grid: inout Grid) {
    var x = area.minX
    let process = state.process
    x += grid.put(" \(process.name) (pid \(process.pid)) ", at: Point(x: x, y: area.minY), style: .title)
    let status: (String, Style)
    if let ending = state.ending {
      let shown = state.latest == nil ? "" : state.isAtExit ? ": read at its exit" : ": its last snapshot"
      status = ("\(ending)\(shown) · q quits", .alert)
    } else if let failure = state.failure {
      status = (failure, .alert)
    } else if state.latest == nil {
      status = (state.isPaused ? "paused" : "taking the first snapshot…", .muted)
    } else {
      let latest = state.latest!
      let running = state.isPaused ? "paused" : "running"
      let stopped = CensusText.millisecondsText(latest.stoppedMilliseconds)
      status = (
        "· \(running) · snapshot \(state.snapshotCount), every \(state.period) s · stopped \(stopped)", .plain
      )
    }
    grid.put(status.0, at: Point(x: x, y: area.minY), style: status.1, maxWidth: area.maxX - x)
  }

  // MARK: Types

  static func drawTypes(_ state: WatchState, in area: Rect, on grid: inout Grid) {
    let rows = state.rows
    var title = "Types"
    if let census = state.latest?.census {
      title += " · \(census.entries.count) · \(CensusText.byteText(census.bytes))"
    }
    title += " · by \(state.order == .change ? "change" : state.order.rawValue)"
    if !state.filter.isEmpty || state.isFiltering { title += " · /\(state.filter)" }
    let inner = grid.drawBox(
      area, title: title, style: state.focus == .types ? .title : .plain, titleStyle: .title)
    guard inner.height > 1 else { return }
    let chartWidth = WatchState.historyLength
    let columns = "  count  change     bytes  " + "chart".padded(toWidth: chartWidth) + "  type"
    let mark = state.markSnapshot > 0 ? "change since snapshot \(state.markSnapshot) (m)" : ""
    grid.put(columns, at: inner.origin, style: .muted, maxWidth: inner.width)
    if columns.displayWidth + mark.displayWidth + 2 <= inner.width {
      grid.put(mark, at: Point(x: inner.maxX - mark.displayWidth, y: inner.minY), style: .muted)
    }
    let list = inner.inset(top: 1)
    guard !rows.isEmpty else {
      let empty = state.latest == nil ? "The first census comes with the first snapshot." : "No type matches."
      grid.put(empty, at: list.origin, style: .muted, maxWidth: list.width)
      return
    }
    let selected = state.selectedRow
    let first = max(0, min(selected - list.height / 2, rows.count - list.height))
    for (offset, row) in rows.dropFirst(first).prefix(list.height).enumerated() {
      let y = list.minY + offset
      let isSelected = first + offset == selected
      let style: Style = isSelected ? (state.focus == .types ? .selected : .title) : .plain
      if isSelected { grid.fill(Rect(x: list.minX, y: y, width: list.width, height: 1), style: style) }
      var x = list.minX
      let change = row.sinceMark == 0 ? "0" : CensusText.signed(row.sinceMark)
      let numbers =
        String(row.entry.count).leftPadded(toWidth: 7) + change.leftPadded(toWidth: 8)
        + CensusText.byteText(row.entry.bytes).leftPadded(toWidth: 10) + "  "
      x += grid.put(numbers, at: Point(x: x, y: y), style: style, maxWidth: list.maxX - x)
      let chart = CensusTimeline.sparkline(row.counts).padded(toWidth: chartWidth)
      let chartStyle: Style = isSelected ? style : (row.sinceMark > 0 ? .warning : .muted)
      x += grid.put(chart, at: Point(x: x, y: y), style: chartStyle, maxWidth: list.maxX - x)
      x += 2
      x += grid.put(row.entry.name, at: Point(x: x, y: y), style: style, maxWidth: list.maxX - x)
      if let module = row.entry.module, x + module.displayWidth + 2 <= list.maxX {
        grid.put(module, at: Point(x: x + 2, y: y), style: isSelected ? style : .muted)
      }
    }
  }

  // MARK: Leaks

  static func drawLeaks(_ state: WatchState, in area: Rect, on grid: inout Grid) {
    let leaks = state.leaks
    var title = state.isAtExit ? "Leaks at exit" : "Leaks"
    if state.latest != nil { title += " · \(leaks.count) kind\(leaks.count == 1 ? "" : "s")" }
    let inner = grid.drawBox(
      area, title: title, style: state.focus == .leaks ? .title : .plain, titleStyle: .title)
    guard inner.height > 0 else { return }
    guard let latest = state.latest else { return }
    guard !leaks.isEmpty else {
      grid.put(
        "No leaks: every object is reachable.", at: inner.origin, style: .success, maxWidth: inner.width)
      return
    }
    var lines: [(String, Style)] = TextWrapping.words(latest.leakSummary, width: inner.width).map {
      ($0, .muted)
    }
    var selectedLine = 0
    for (index, kind) in leaks.enumerated() {
      let isSelected = index == state.selectedLeak
      if isSelected { selectedLine = lines.count }
      let style: Style = isSelected && state.focus == .leaks ? .selected : .plain
      let wrapped = TextWrapping.words("\(kind.count) × \(kind.signature)", width: max(1, inner.width - 2))
      for (row, text) in wrapped.enumerated() { lines.append(((row == 0 ? "" : "  ") + text, style)) }
    }
    let list = inner
    let first = max(0, min(selectedLine - list.height / 2, lines.count - list.height))
    for (offset, line) in lines.dropFirst(first).prefix(list.height).enumerated() {
      let y = list.minY + offset
      if line.1 == .selected {
        grid.fill(Rect(x: list.minX, y: y, width: list.width, height: 1), style: .selected)
      }
      grid.put(line.0, at: Point(x: list.minX, y: y), style: line.1, maxWidth: list.width)
    }
  }

  // MARK: Instances

  static func drawInstances(_ state: WatchState, in area: Rect, on grid: inout Grid) {
    let row = state.selected
    let title = row.map { "\($0.entry.name) · instances" } ?? "Instances"
    let inner = grid.drawBox(
      area, title: title, style: state.focus == .instances ? .title : .plain, titleStyle: .title)
    guard inner.height > 0, let row else { return }
    let lines = instanceLines(row, state: state, width: inner.width)
    ScrollView.draw(Grid(lines: lines), in: inner, box: area, at: state.instancesScroll, on: &grid)
  }

  /// What the instances pane says of the selected type: its counts, what is
  /// new since the mark, its module, where they were allocated (`--stacks`),
  /// its newest instances' addresses.
  static func instanceLines(_ row: WatchState.Row, state: WatchState, width: Int) -> [(String, Style)] {
    let entry = row.entry
    var lines: [(String, Style)] = []
    let each = entry.count > 0 ? entry.bytes / entry.count : 0
    lines.append(("\(entry.count) live, \(CensusText.byteText(entry.bytes)) (\(each) B each)", .plain))
    let marked = state.mark?.entry(key: entry.key)
    let known = marked.flatMap { $0.instances.count == $0.count ? $0.instances : nil }
    let fresh = known.map { entry.instances.countNotIn($0) } ?? entry.count
    lines.append(
      (
        "\(CensusText.signed(row.sinceMark)) since the mark, \(fresh) new",
        row.sinceMark > 0 ? .warning : .plain
      ))
    if let low = row.counts.min(), let high = row.counts.max() {
      lines.append(
        ("last \(row.counts.count): \(low)–\(high) \(CensusTimeline.sparkline(row.counts))", .muted))
    }
    let origin = entry.module.map { "\($0)\(entry.isProgramType ? " (program)" : "")" } ?? "\(entry.kind)"
    lines.append((entry.qualifiedName.map { "\($0) · \(origin)" } ?? origin, .muted))
    if let allocation = state.latest?.sites[entry.key] {
      let share = allocation.count < entry.count ? "\(allocation.count) of \(entry.count) " : ""
      // A path wider than the pane breaks after a `/`: the line number must show.
      lines += TextWrapping.words(share + allocation.site.headline, width: width, cutsLongWords: false).map {
        ($0, .plain)
      }
    }
    lines.append(("Enter: why is the newest alive?", .key))
    let addresses = Array(entry.instances)
    let newest = known.map { entry.instances.subtracting($0) } ?? addresses
    if !addresses.isEmpty {
      lines.append(
        (newest.isEmpty ? "newest (none new since the mark):" : "newest new since the mark:", .muted))
      for address in (newest.isEmpty ? addresses : newest).reversed().prefix(50) {
        lines.append(("  0x" + String(address, radix: 16), .plain))
      }
    }
    return lines.flatMap { line in
      line.0.displayWidth <= width ? [line] : TextWrapping.words(line.0, width: width).map { ($0, line.1) }
    }
  }
}

extension String {
  /// The string with spaces before it up to `width` columns.
  fileprivate func leftPadded(toWidth width: Int) -> String {
    String(repeating: " ", count: max(0, width - displayWidth)) + self
  }
}
