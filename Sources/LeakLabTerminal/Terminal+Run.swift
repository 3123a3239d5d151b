import Foundation
import TextGrid

extension Terminal {
  /// Sets up the terminal, runs `app` until it quits, and restores the terminal.
  ///
  /// ```swift
  /// try Terminal.run(app, options: Terminal.Options(minimumSize: Size(width: 80, height: 24)))
  /// ```
  ///
  /// - Throws: ``TerminalError`` before anything is drawn when the process
  ///   does not run in a usable terminal.
  public static func run(_ app: some TerminalApp, options: Options = Options()) throws(TerminalError) {
    let terminal = try Terminal(options: options)
    defer { terminal.restore() }
    terminal.run(app)
  }

  /// Runs `app` until it quits: draw, wait for a key, run the main queue's due work, tick.
  ///
  /// Each turn waits at most ``Options/inputTimeout`` (50 ms) for a key, so work
  /// scheduled on the main queue (`DispatchQueue.main.asyncAfter`, `Timer`,
  /// `Task { @MainActor in … }`) runs within that delay. While the terminal is
  /// smaller than ``Options/minimumSize`` a "terminal too small" message
  /// replaces the app's frame; keys still reach the app. The loop sleeps in
  /// the kernel while idle, so an idle app costs almost no CPU.
  public func run(_ app: some TerminalApp) {
    var needsFrame = true
    while true {
      if needsFrame {
        draw(frame(of: app))
        needsFrame = false
      }
      if let key = readKey(timeout: options.inputTimeout) {
        if app.handle(key) == .quit { return }
        needsFrame = true
      }
      _ = RunLoop.main.run(mode: .default, before: Date())
      switch app.tick() {
      case .unchanged: break
      case .redraw: needsFrame = true
      case .quit: return
      }
    }
  }

  /// The app's frame, or the "too small" message when the terminal is below the minimum size.
  private func frame(of app: some TerminalApp) -> Grid {
    if options.minimumSize.fits(in: size) {
      return app.frame(for: size)
    }
    return Self.tooSmallFrame(size: size, minimum: options.minimumSize)
  }

  /// The frame shown while the terminal is smaller than `minimum`.
  ///
  /// ```
  ///   Terminal too small
  ///   30×8, needs 40×10
  /// ```
  nonisolated public static func tooSmallFrame(size: Size, minimum: Size) -> Grid {
    var grid = Grid(size: size)
    let lines = ["Terminal too small", "\(size), needs \(minimum)", "enlarge the window"]
    let top = max(0, (size.height - lines.count) / 2)
    for (index, line) in lines.enumerated() {
      let text = line.truncated(toWidth: size.width)
      let x = max(0, (size.width - text.displayWidth) / 2)
      grid.put(text, at: Point(x: x, y: top + index), style: index == 0 ? .alert : .plain)
    }
    return grid
  }
}
