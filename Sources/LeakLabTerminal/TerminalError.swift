/// Why the terminal could not be started: each case reads as a one-line message.
///
/// An executable prints the error and exits with status 2:
///
/// ```swift
/// do {
///   try Terminal.run(app)
/// } catch {
///   FileHandle.standardError.write(Data("leaklab: \(error)\n".utf8))
///   exit(2)
/// }
/// ```
public enum TerminalError: Error, Equatable, Sendable, CustomStringConvertible {
  /// `TERM` is not set (or is empty).
  case terminalTypeNotSet
  /// `TERM=dumb`: a terminal that cannot move the cursor.
  case dumbTerminal
  /// Standard input is not a terminal (input piped or redirected).
  case standardInputNotATerminal
  /// Standard output is not a terminal (output piped or redirected).
  case standardOutputNotATerminal
  /// No terminfo entry for the terminal type `TERM` names.
  case unknownTerminalType(String)
  /// Another ``Terminal`` is active in this process; curses drives one screen.
  case alreadyActive

  public var description: String {
    switch self {
    case .terminalTypeNotSet:
      "TERM is not set; run it in a terminal emulator (or set TERM, e.g. TERM=xterm-256color)"
    case .dumbTerminal:
      "TERM=dumb cannot show a full-screen interface; use a terminal such as xterm-256color"
    case .standardInputNotATerminal:
      "standard input is not a terminal; run it in a terminal, without piping into it"
    case .standardOutputNotATerminal:
      "standard output is not a terminal; run it in a terminal, without redirecting its output"
    case .unknownTerminalType(let type):
      "unknown terminal type '\(type)' (no terminfo entry); set TERM to a known type such as xterm-256color"
    case .alreadyActive:
      "the terminal is already in use by this process"
    }
  }
}
