// A tiny app for the terminal layer's end-to-end tests: a box with a title,
// Unicode and wide text, coloured samples, the terminal size, the last key and
// whether the main queue's delayed work ran. `q` quits; `!` crashes on purpose;
// `y` copies a text to the clipboard (OSC 52).
import Foundation
import LeakLabTerminal
import TextGrid

@MainActor
final class SmokeApp: TerminalApp {
  private var lastKey: Key?
  private var keyCount = 0
  private var delayedWorkRan = false
  private var changedOutsideKeys = false
  private var requests: [TerminalRequest] = []

  init() {
    DispatchQueue.main.asyncAfter(deadline: .now() + .milliseconds(200)) { [weak self] in
      self?.delayedWorkRan = true
      self?.changedOutsideKeys = true
    }
  }

  func frame(for size: Size) -> Grid {
    var grid = Grid(size: size)
    let inner = grid.drawBox(grid.bounds, title: "TerminalSmoke", style: .muted, titleStyle: .title)
    let lines: [(String, Style)] = [
      ("size: \(size)", .plain),
      ("key: \(lastKey.map(Self.describe) ?? "none") (\(keyCount))", .key),
      ("wide: 漢字 カタカナ 🐛 ok", .plain),
      ("accents: café naïve", .plain),
      ("delayed work: \(delayedWorkRan ? "ran" : "pending")", delayedWorkRan ? .success : .warning),
      ("alert sample", .alert),
      ("q quits", .muted),
    ]
    for (row, (text, style)) in lines.enumerated() where row < inner.height {
      grid.put(text, at: inner.origin.offsetBy(dy: row), style: style, maxWidth: inner.width)
    }
    return grid
  }

  /// The key's name; a mouse event with its kind and cell: `Wheel down (3, 4)`.
  static func describe(_ key: Key) -> String {
    guard case .mouse(let event) = key else { return key.name }
    return "\(key.name) \(event.kind) \(event.point)"
  }

  func handle(_ key: Key) -> LoopDecision {
    switch key {
    case .character("q"):
      return .quit
    case .character("!"):
      fatalError("TerminalSmoke crashed on purpose")
    case .character("y"):
      requests.append(.copyToClipboard("TerminalSmoke → clipboard"))
      lastKey = key
      keyCount += 1
      return .continue
    default:
      lastKey = key
      keyCount += 1
      return .continue
    }
  }

  func takeTerminalRequests() -> [TerminalRequest] {
    defer { requests = [] }
    return requests
  }

  func tick() -> TickOutcome {
    defer { changedOutsideKeys = false }
    return changedOutsideKeys ? .redraw : .unchanged
  }
}

CrashReports.makeNonInteractive()
do {
  try Terminal.run(
    SmokeApp(), options: Terminal.Options(minimumSize: Size(width: 40, height: 10), reportsMouse: true))
} catch {
  FileHandle.standardError.write(Data("TerminalSmoke: \(error)\n".utf8))
  exit(2)
}
