import ScreenKit
import TextGrid

/// The simulated phone: a navigation bar (back button and title), the
/// screen's labels and buttons (numbered with the keys that tap them), and an
/// alert as a modal box on top with its numbered actions.
///
/// ```
/// ┌─ Phone · strong ─────┐
/// │‹ LeakLab   Feed      │
/// │──────────────────────│
/// │Latest posts          │
/// │[1 Load]              │
/// └──────────────────────┘
/// ```
enum PhoneView {
  static func draw(_ state: AppState, in area: Rect, on grid: inout Grid) {
    let title = state.openScenario.map { "Phone · \($0.mode.rawValue)" } ?? "Phone"
    let inner = grid.drawBox(area, title: title, style: .muted, titleStyle: .title)
    guard inner.width > 0, inner.height > 0, let phone = state.phone else { return }
    drawNavigationBar(phone, in: inner, on: &grid)
    let content = inner.inset(top: 2)
    if state.openScenario == nil {
      let hint = TextWrapping.words("Select a scenario and press Enter to open it.", width: content.width)
      grid.putLines(hint.map { ($0, .muted) }, in: content.inset(top: 1))
    } else {
      drawViews(phone.views, actions: state.openEntry?.actions.map(\.title) ?? [], in: content, on: &grid)
    }
    if let alert = phone.alert {
      drawAlert(alert, in: inner, on: &grid)
    }
  }

  private static func drawNavigationBar(_ phone: ScreenSnapshot, in inner: Rect, on grid: inout Grid) {
    var used = 0
    if let back = phone.backTitle {
      let text = "‹ " + back
      used = grid.put(text.truncated(toWidth: inner.width / 2), at: inner.origin, style: .key)
    }
    let title = phone.title.truncated(toWidth: max(0, inner.width - used - 1))
    let centered = (inner.width - title.displayWidth) / 2
    let x = inner.minX + max(centered, used + (used > 0 ? 1 : 0))
    grid.put(title, at: Point(x: x, y: inner.minY), style: .title, maxWidth: inner.maxX - x)
    if inner.height > 1 {
      grid.put(
        String(repeating: "─", count: inner.width), at: Point(x: inner.minX, y: inner.minY + 1), style: .muted
      )
    }
  }

  private static func drawViews(
    _ views: [ViewSnapshot], actions: [String], in area: Rect, on grid: inout Grid
  ) {
    var lines: [(String, Style)] = []
    for view in views {
      let indent = String(repeating: " ", count: min(view.depth * 2, area.width / 3))
      let width = max(1, area.width - indent.count)
      switch view.content {
      case .container:
        continue
      case .label(let text):
        lines += TextWrapping.words(text, width: width).map { (indent + $0, .plain) }
      case .button(let title, let isEnabled):
        let number = actions.firstIndex(of: title).map { "\($0 + 1) " } ?? ""
        let text = "[\(number)\(title)]".truncated(toWidth: width)
        lines.append((indent + text, isEnabled ? .key : .muted))
      }
    }
    grid.putLines(lines, in: area)
  }

  private static func drawAlert(_ alert: AlertSnapshot, in inner: Rect, on grid: inout Grid) {
    let width = inner.width
    let textWidth = max(1, width - 4)
    var lines: [(String, Style)] = TextWrapping.words(alert.title, width: textWidth).map { ($0, .title) }
    if let message = alert.message {
      lines += TextWrapping.words(message, width: textWidth).map { ($0, .plain) }
    }
    lines.append(("", .plain))
    for (index, action) in alert.actions.enumerated() {
      let style: Style =
        switch action.style {
        case .destructive: .alert
        case .cancel: .title
        case .default: .plain
        }
      lines.append(("\(index + 1) \(action.title)".truncated(toWidth: textWidth), style))
    }
    let below = inner.inset(top: 2)
    let box = (below.height >= lines.count + 2 ? below : inner).centered(
      Size(width: width, height: lines.count + 2))
    grid.fill(box)
    let content = grid.drawBox(box, style: .title).inset(left: 1, right: 1)
    for (row, line) in lines.enumerated() where row < content.height {
      let isHeading = row < lines.count - alert.actions.count - 1
      let x = isHeading ? content.minX + max(0, (content.width - line.0.displayWidth) / 2) : content.minX
      grid.put(line.0, at: Point(x: x, y: content.minY + row), style: line.1, maxWidth: content.maxX - x)
    }
  }
}
