import Scenarios
import TextGrid

/// The scenario's code in the mode that runs, the lines that differ between
/// strong and weak marked with `●` (strong in the alert style, weak in the
/// success style), then the other form's lines marked `○`, dimmed.
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
    var lines: [(String, Style)] = entry.code.lines(for: mode).map { line in
      line.role == .common ? ("  " + line.text, .plain) : ("● " + line.text, marked)
    }
    let other = entry.code.lines.filter { $0.role.rawValue == mode.toggled.rawValue }
    if !other.isEmpty, lines.count + 2 + other.count <= inner.height {
      lines.append(("", .plain))
      lines.append(("○ \(mode.toggled.rawValue) form (w switches):", .muted))
      lines += other.map { ("○ " + $0.text.trimmingLeadingSpaces, .muted) }
    }
    if lines.count > inner.height {
      lines = Array(lines.prefix(max(0, inner.height - 1))) + [("  …", .muted)]
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
