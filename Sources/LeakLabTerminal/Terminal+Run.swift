import CNcurses
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

  /// Runs `app` until it quits: draw, read the keys that arrived, run the main
  /// queue's and the run loop's due work, tick, then sleep until something is due.
  ///
  /// The loop sleeps in the main run loop, which wakes it for a key (a read
  /// source on standard input), a resize (SIGWINCH, through a pipe), work on
  /// the main queue (`DispatchQueue.main.asyncAfter`, `Task { @MainActor in … }`),
  /// the next `Timer` of the run loop, and the delay the app asks for
  /// (``TerminalApp/nextTickDelay()``). An idle app with nothing due does not
  /// wake at all. While the terminal is smaller than ``Options/minimumSize`` a
  /// "terminal too small" message replaces the app's frame, and keys do not
  /// reach the app (the user cannot see what they would do) except a resize;
  /// ``Options/quitKeys`` quit.
  public func run(_ app: some TerminalApp) {
    let wakeups = InputWakeups(resizeDescriptor: resizeDescriptor)
    defer { wakeups.cancel() }
    var needsFrame = true
    while true {
      if needsFrame {
        draw(frame(of: app))
        needsFrame = false
      }
      wakeups.reset()
      while let key = readKey(timeout: .zero) {
        needsFrame = true
        switch Self.route(key, fits: options.minimumSize.fits(in: size), quitKeys: options.quitKeys) {
        case .app: if app.handle(key) == .quit { return }
        case .quit: return
        case .ignore: break
        }
      }
      // Runs the main queue's work and the run loop's timers that are due;
      // answers when the next timer fires.
      let nextTimer = RunLoop.main.limitDate(forMode: .default) ?? .distantFuture
      switch app.tick() {
      case .unchanged: break
      case .redraw: needsFrame = true
      case .quit: return
      }
      for request in app.takeTerminalRequests() {
        perform(request)
      }
      if needsFrame || wakeups.isPending { continue }
      var deadline = nextTimer
      if let delay = app.nextTickDelay() {
        deadline = min(deadline, Date(timeIntervalSinceNow: max(0, delay.timeInterval)))
      }
      _ = RunLoop.main.run(mode: .default, before: deadline)
    }
  }

  /// Does what the app asked of the terminal.
  public func perform(_ request: TerminalRequest) {
    switch request {
    case .copyToClipboard(let text): writeOutOfBand(Self.clipboardSequence(for: text))
    }
  }

  /// The OSC 52 sequence that puts `text` on the clipboard: `ESC ] 52 ; c ; base64 BEL`.
  ///
  /// ```swift
  /// Terminal.clipboardSequence(for: "A#1")  // "\u{1B}]52;c;QSMx\u{07}"
  /// ```
  nonisolated public static func clipboardSequence(for text: String) -> String {
    "\u{1B}]52;c;\(Data(text.utf8).base64EncodedString())\u{07}"
  }

  /// Where a key goes: to the app, nowhere, or out of the loop.
  public enum KeyRoute: Hashable, Sendable {
    /// The app handles it.
    case app
    /// Nothing happens: the app's frame is not on screen.
    case ignore
    /// The loop ends.
    case quit
  }

  /// Where `key` goes: to the app when its frame is on screen (`fits`); while
  /// the "too small" message shows, a resize still reaches the app, `quitKeys`
  /// quit and every other key is ignored.
  ///
  /// ```swift
  /// Terminal.route(.enter, fits: false, quitKeys: [.character("q")])  // .ignore
  /// ```
  nonisolated public static func route(_ key: Key, fits: Bool, quitKeys: [Key]) -> KeyRoute {
    if fits || key == .resize { return .app }
    return quitKeys.contains(key) ? .quit : .ignore
  }

  /// The app's frame, or the "too small" message when the terminal is below the minimum size.
  private func frame(of app: some TerminalApp) -> Grid {
    if options.minimumSize.fits(in: size) {
      return app.frame(for: size)
    }
    return Self.tooSmallFrame(size: size, minimum: options.minimumSize, quitKey: options.quitKeys.first)
  }

  /// The frame shown while the terminal is smaller than `minimum`.
  ///
  /// ```
  ///   Terminal too small
  ///   30×8, needs 40×10
  ///   enlarge it, or q quits
  /// ```
  nonisolated public static func tooSmallFrame(size: Size, minimum: Size, quitKey: Key? = nil) -> Grid {
    var grid = Grid(size: size)
    let advice = quitKey.map { "enlarge it, or \($0.name) quits" } ?? "enlarge the window"
    let lines = ["Terminal too small", "\(size), needs \(minimum)", advice]
    let top = max(0, (size.height - lines.count) / 2)
    for (index, line) in lines.enumerated() {
      let text = line.truncated(toWidth: size.width)
      let x = max(0, (size.width - text.displayWidth) / 2)
      grid.put(text, at: Point(x: x, y: top + index), style: index == 0 ? .alert : .plain)
    }
    return grid
  }
}
