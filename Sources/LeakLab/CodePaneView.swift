import Scenarios
import TextGrid

/// The scenario's code in the mode that runs, the lines that differ between
/// strong and weak marked with `●` (strong in the alert style, weak in the
/// success style), then the other form's lines marked `○`, dimmed. The line
/// `leaklab lint` flags is marked `▶`, and the last row says what the lint
/// found beside the live verdict (``ScenarioLint``).
///
/// ```
/// ┌─ Code · strong (leaky) ────────────┐
/// │  func load() {                     │
/// │●   service.run(completion: handle) │
/// │  }                                 │
/// │                                    │
/// │○ weak form:                        │
/// │○ service.run { [weak self] in … }  │
/// ```
enum CodePaneView {
  static func draw(_ state: AppState, in area: Rect, on grid: inout Grid) {
    guard let entry = state.shownEntry else {
      grid.drawBox(area, title: "Code", style: .muted, titleStyle: .title)
      return
    }
    let mode = state.openScenario?.mode ?? entry.mode
    let inner = grid.drawBox(
      area, title: "Code · \(mode.rawValue) (\(mode.prose))", style: .muted, titleStyle: .title)
    guard inner.width > 2, inner.height > 0 else { return }
    let marked: Style = mode == .strong ? .alert : .success
    let lint = ScenarioLint(entry: entry, mode: mode)
    let flagged = lint?.flaggedLines ?? []
    var lines: [(String, Style)] = entry.code.lines(for: mode).map { line in
      if flagged.contains(line.text.trimmingLeadingSpaces) { return ("▶ " + line.text, .alert) }
      return line.role == .common ? ("  " + line.text, .plain) : ("● " + line.text, marked)
    }
    // The last rows: the lint's finding beside the live verdict (catalogue
    // scenarios only), on two rows when one is too narrow.
    var status: [(String, Style)] = []
    if let lint {
      let style: Style =
        switch lint.isConfirmed(in: state) {
        case true?: lint.findings.isEmpty ? .success : .alert
        case false?: .warning
        case nil: .muted
        }
      let text = lint.status(in: state)
      status =
        text.count <= inner.width || inner.height < 4
        ? [(text, style)]
        : text.components(separatedBy: " — ").enumerated().map {
          ($1.isEmpty || $0 == 0 ? $1 : "— " + $1, style)
        }
    }
    let room = inner.height - status.count
    let other = entry.code.lines.filter { $0.role.rawValue == mode.toggled.rawValue }
    if !other.isEmpty, lines.count + 2 + other.count <= room {
      lines.append(("", .plain))
      lines.append(("○ \(mode.toggled.rawValue) form (w switches):", .muted))
      lines += other.map { ("○ " + $0.text.trimmingLeadingSpaces, .muted) }
    }
    if lines.count > room {
      // Keep the flagged line in view: start just above it when it would be cut.
      let flaggedRow = lines.firstIndex { $0.0.hasPrefix("▶ ") } ?? 0
      let start = flaggedRow >= room - 1 ? min(flaggedRow - 1, lines.count - room + 1) : 0
      lines = Array(lines[start...])
      if start > 0 { lines[0] = ("  …", .muted) }
      if lines.count > room { lines = Array(lines.prefix(max(0, room - 1))) + [("  …", .muted)] }
    }
    if !status.isEmpty {
      lines += Array(repeating: ("", .plain), count: max(0, room - lines.count))
      lines += status
    }
    let cut = lines.map { ($0.0.truncated(toWidth: inner.width), $0.1) }
    grid.putLines(cut, in: inner)
  }
}

extension String {
  fileprivate var trimmingLeadingSpaces: String {
    String(drop { $0 == " " })
  }
}
