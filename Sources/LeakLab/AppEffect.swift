import Scenarios

/// What the reducer asks the model to do to the simulated world.
///
/// The reducer is pure: it changes ``AppState`` and returns effects;
/// ``AppModel`` performs them on its ``Scenarios/ScenarioHarness``.
public enum AppEffect: Equatable, Sendable {
  /// Start a new run: a fresh window, detector and environment, with the scenario's screen pushed.
  case open(id: String, mode: ScenarioMode)
  /// Go back as Esc would: cancel the alert, dismiss a modal, or pop the screen.
  /// When the harness reports that the scenario's screen left, the model
  /// answers with ``AppAction/scenarioClosed``.
  case goBack
  /// Tap the button of the open scenario's action at this index (from zero).
  case runAction(index: Int)
  /// Tap the shown alert's action at this index (from zero).
  case tapAlertAction(index: Int)
  /// Put this text on the terminal's clipboard (OSC 52).
  case copyToClipboard(String)
  /// Write the current run's report as JSON to a file; the model answers with
  /// ``AppAction/reportWritten(path:error:)``.
  case writeReport
  /// The guided tour was finished or hidden: it no longer starts by itself.
  case rememberTourDone
}
