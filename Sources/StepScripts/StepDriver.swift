import TextGrid

/// What a step script runs against: the app model headless, or the real app in
/// a pseudo-terminal. Both read the same summary label.
///
/// The protocol is not tied to an actor: the headless driver conforms on the
/// main actor (an isolated conformance), the terminal driver on whatever
/// thread runs it, so several terminal scripts can run side by side.
public protocol StepDriver: AnyObject {
  /// Performs a step that changes the app (`select`, `open`, `wait`, …).
  func perform(_ command: StepCommand) throws(StepDriverError)
  /// The detector's summary label as it reads now.
  func readLabel() throws(StepDriverError) -> String
  /// The label for an `expect`: as soon as `isMet` holds of it, or as it
  /// reads when the driver stops waiting. A driver on a manual clock reads
  /// it once (the default); one in real time waits, within a bound, for the
  /// detector's sweep, which a loaded machine delays.
  func readLabel(until isMet: (String) -> Bool) throws(StepDriverError) -> String
}

extension StepDriver {
  public func readLabel(until isMet: (String) -> Bool) throws(StepDriverError) -> String {
    try readLabel()
  }
}

extension StepDriver {
  /// The terminal size both drivers show the app at (120×40), so a script reads
  /// its label off the same screen headless and in the terminal.
  public static var screenSize: Size { Size(width: 120, height: 40) }
}

/// Why a driver could not perform a step.
public enum StepDriverError: Error, Equatable, CustomStringConvertible {
  /// The step names something that does not exist (an unknown scenario id, an
  /// action number the scenario does not have): the script is wrong.
  case invalidInput(String)
  /// The app could not be driven (the terminal app exited, say).
  case failure(String)

  public var description: String {
    switch self {
    case .invalidInput(let message), .failure(let message): message
    }
  }
}
