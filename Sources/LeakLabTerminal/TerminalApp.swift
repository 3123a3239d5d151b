import TextGrid

/// An app the terminal's run loop drives: it renders frames and handles keys.
///
/// The loop (``Terminal/run(_:)``) repeats: draw ``frame(for:)`` when something
/// changed, pass the keys that arrived to ``handle(_:)``, run the main queue's
/// due work (`DispatchQueue.main.asyncAfter`, timers, main-actor tasks), call
/// ``tick()``, then sleep until a key, a resize, main-queue work, a timer or
/// ``nextTickDelay()`` wakes it. Rendering is a pure function of the app's
/// state; the terminal copies the grid to the screen and sends only the changes.
///
/// ```swift
/// @MainActor final class Counter: TerminalApp {
///   var count = 0
///   func frame(for size: Size) -> Grid {
///     var grid = Grid(size: size)
///     grid.put("Count: \(count)  (↑ adds, q quits)", at: .zero)
///     return grid
///   }
///   func handle(_ key: Key) -> LoopDecision {
///     switch key {
///     case .up: count += 1
///     case .character("q"): return .quit
///     default: break
///     }
///     return .continue
///   }
///   func tick() -> TickOutcome { .unchanged }
/// }
/// try Terminal.run(Counter())
/// ```
@MainActor
public protocol TerminalApp: AnyObject {
  /// The whole screen for a terminal of `size`.
  ///
  /// Called after every key, after a resize and whenever ``tick()`` asks for a
  /// redraw. A grid of another size is clipped or padded with blanks.
  func frame(for size: Size) -> Grid

  /// Reacts to a key (including ``Key/resize``); the frame is redrawn afterwards.
  func handle(_ key: Key) -> LoopDecision

  /// Called once per loop turn, after the main queue's and the run loop's due work ran.
  ///
  /// Return ``TickOutcome/redraw`` when state changed outside ``handle(_:)``
  /// (a timer fired, a delayed dispatch ran), else ``TickOutcome/unchanged``.
  func tick() -> TickOutcome

  /// How long the loop may sleep before it must call ``tick()`` again although
  /// nothing woke it: for what changes with time alone (a clock drawn in
  /// whole seconds). `nil`, the default: until something arrives.
  func nextTickDelay() -> Duration?

  /// What the app asks of the terminal itself (copy to the clipboard), taken
  /// after every key and tick; each request is returned once.
  func takeTerminalRequests() -> [TerminalRequest]
}

extension TerminalApp {
  /// No requests: the default for apps that only draw.
  public func takeTerminalRequests() -> [TerminalRequest] { [] }

  /// Nothing changes with time alone: the loop sleeps until something arrives.
  public func nextTickDelay() -> Duration? { nil }
}

/// Something only the terminal can do for the app.
public enum TerminalRequest: Hashable, Sendable {
  /// Put `text` on the clipboard with an OSC 52 escape sequence (the terminal,
  /// or tmux with `set-clipboard on`, stores it; over SSH too).
  case copyToClipboard(String)
}

/// What the run loop does after a key: go on or stop.
public enum LoopDecision: Hashable, Sendable {
  /// Keep running.
  case `continue`
  /// Leave the loop; the terminal is restored.
  case quit
}

/// What the run loop does after a turn without a key.
public enum TickOutcome: Hashable, Sendable {
  /// Nothing visible changed; keep the current frame.
  case unchanged
  /// Something changed; render a new frame.
  case redraw
  /// Leave the loop; the terminal is restored.
  case quit
}
