import CNcurses
import Foundation
import TextGrid

/// The real terminal, through ncurses: all setup and teardown in one place.
///
/// Creating a `Terminal` checks that the process runs in a usable terminal
/// (``preflight(environment:standardInputIsTerminal:standardOutputIsTerminal:)``),
/// then sets it up: the locale from the environment (UTF-8 for box drawing and
/// wide text), cbreak mode (Ctrl-C still raises SIGINT), no echo, keypad keys,
/// a 25 ms Esc delay, hidden cursor, and colours — or attributes only when
/// `NO_COLOR` is set or the terminal has no colours. Resizes arrive as
/// ``Key/resize``.
///
/// The terminal is restored by ``restore()``, when the process exits, and on
/// SIGINT, SIGTERM, SIGHUP and SIGQUIT (which then exit with status 128 + signal
/// number); crash signals restore it before the runtime reports the crash.
///
/// Most apps only call ``run(_:options:)``:
///
/// ```swift
/// do {
///   try Terminal.run(app, options: Terminal.Options(minimumSize: Size(width: 80, height: 24)))
/// } catch {
///   FileHandle.standardError.write(Data("leaklab: \(error)\n".utf8))
///   exit(2)
/// }
/// ```
@MainActor
public final class Terminal {
  /// How the terminal is set up and how the run loop behaves.
  public struct Options: Sendable {
    /// Below this size the run loop shows a "terminal too small" message instead of the app's frame.
    public var minimumSize: Size
    /// Colours, or attributes only; `nil` decides from `NO_COLOR` and the terminal.
    public var colorMode: ColorMode?
    /// The keys that quit while the terminal is too small: the only keys that
    /// do anything then (the first is named in the message).
    public var quitKeys: [Key]
    /// Whether clicks and the wheel arrive as ``Key/mouse(_:)`` (text selection
    /// in the terminal then needs Shift, as in htop).
    public var reportsMouse: Bool

    /// Creates options; the defaults suit an interactive app.
    public init(
      minimumSize: Size = .zero, colorMode: ColorMode? = nil,
      quitKeys: [Key] = [.character("q"), .control("c")], reportsMouse: Bool = false
    ) {
      self.minimumSize = minimumSize
      self.colorMode = colorMode
      self.quitKeys = quitKeys
      self.reportsMouse = reportsMouse
    }
  }

  /// Whether styles are drawn with colours or with attributes only.
  public enum ColorMode: Hashable, Sendable {
    /// Colours and attributes.
    case color
    /// Attributes only (bold, dim, reverse, underline): `NO_COLOR` or a terminal without colours.
    case monochrome
  }

  /// The options the terminal was created with.
  public let options: Options
  /// The terminal's current size; updated when a ``Key/resize`` is read.
  public private(set) var size: Size
  /// Whether styles use colours.
  public let colorMode: ColorMode
  /// Whether the locale is UTF-8; otherwise non-ASCII characters are drawn as ASCII stand-ins.
  public let isUnicode: Bool

  /// The pipe a SIGWINCH writes to, so that the sleeping loop wakes for a resize (-1: none).
  let resizeDescriptor: Int32
  private let screen: OpaquePointer
  private let window: UnsafeMutablePointer<WINDOW>
  private var painter: ScreenPainter
  private var isActive = true
  private static var activeInstance = false

  /// Checks the environment, then takes over the terminal.
  ///
  /// - Throws: ``TerminalError`` when the process does not run in a usable
  ///   terminal or another `Terminal` is active.
  public init(
    options: Options = Options(), environment: [String: String] = ProcessInfo.processInfo.environment
  )
    throws(TerminalError)
  {
    guard !Self.activeInstance else { throw .alreadyActive }
    try Self.preflight(
      environment: environment, standardInputIsTerminal: isatty(STDIN_FILENO) == 1,
      standardOutputIsTerminal: isatty(STDOUT_FILENO) == 1)

    cn_unblock_signals()
    isUnicode = cn_setup_locale()
    cn_save_shell_mode()
    cn_install_restore_handlers()
    let type = environment["TERM"] ?? ""
    guard let screen = type.withCString({ cn_newterm($0) }) else { throw .unknownTerminalType(type) }
    self.screen = screen
    window = cn_stdscr()!
    resizeDescriptor = cn_install_resize_wakeup()
    cn_set_active(true)
    Self.activeInstance = true

    cbreak()
    noecho()
    nonl()
    keypad(window, true)
    set_escdelay(25)
    curs_set(0)
    leaveok(window, true)
    if options.reportsMouse { _ = cn_enable_mouse() }

    let noColor = !(environment["NO_COLOR"] ?? "").isEmpty
    colorMode = options.colorMode ?? (noColor || !has_colors() ? .monochrome : .color)
    var usesDefaultColors = false
    if colorMode == .color {
      start_color()
      usesDefaultColors = use_default_colors() == OK
    }
    self.options = options
    painter = ScreenPainter(
      colors: ColorPairs(mode: colorMode, usesDefaultColors: usesDefaultColors), isUnicode: isUnicode)
    size = Size(width: Int(getmaxx(window)), height: Int(getmaxy(window)))
  }

  isolated deinit {
    restore()
  }

  /// Checks, without touching the terminal, that the process can start curses.
  ///
  /// `TERM` must be set and not `dumb`, and standard input and output must be
  /// terminals. (Whether the terminal type is known is checked when curses starts.)
  nonisolated public static func preflight(
    environment: [String: String], standardInputIsTerminal: Bool, standardOutputIsTerminal: Bool
  ) throws(TerminalError) {
    guard let type = environment["TERM"], !type.isEmpty else { throw .terminalTypeNotSet }
    guard type != "dumb" else { throw .dumbTerminal }
    guard standardInputIsTerminal else { throw .standardInputNotATerminal }
    guard standardOutputIsTerminal else { throw .standardOutputNotATerminal }
  }

  /// Gives the terminal back to the shell: leaves the alternate screen, shows
  /// the cursor, restores the shell's input mode. Safe to call more than once.
  public func restore() {
    guard isActive else { return }
    isActive = false
    cn_restore()
    delscreen(screen)
    Self.activeInstance = false
  }

  /// Copies `grid` to the screen, sending only the cells that changed since the last frame.
  public func draw(_ grid: Grid) {
    guard isActive else { return }
    painter.draw(grid, on: window, screenSize: size)
  }

  /// Writes bytes straight to the terminal, between frames (curses has flushed
  /// its output), for sequences curses does not know, such as OSC 52.
  func writeOutOfBand(_ sequence: String) {
    guard isActive else { return }
    fflush(nil)
    FileHandle.standardOutput.write(Data(sequence.utf8))
  }

  /// Waits up to `timeout` for a key; `nil` when none arrived.
  ///
  /// A ``Key/resize`` updates ``size`` before it is returned.
  public func readKey(timeout: Duration) -> Key? {
    guard isActive else { return nil }
    wtimeout(window, timeout.wholeMilliseconds)
    var character: wint_t = 0
    let result = wget_wch(window, &character)
    if result == KEY_CODE_YES, Int32(bitPattern: character) == KEY_MOUSE {
      var x: Int32 = 0
      var y: Int32 = 0
      return Key(mouseCode: cn_read_mouse(&x, &y), x: x, y: y)
    }
    let key = Key(cursesResult: result, value: character)
    if key == .resize {
      size = Size(width: Int(getmaxx(window)), height: Int(getmaxy(window)))
      painter.invalidate()
    }
    return key
  }
}
