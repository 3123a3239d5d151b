import ArgumentParser
import Foundation
import LeakClock
import LeakLab
import LeakLabTerminal
import TextGrid

/// `leaklab` (or `leaklab app`): the interactive terminal app.
struct App: ParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "app",
    abstract: "Start the interactive terminal app (what `leaklab` alone does).",
    discussion: keysHelp
  )

  /// The app's keys, from the key map the app itself uses (`?` shows the same table).
  static let keysHelp = """
    The app's keys (the same table as `?` in the app):
    \(KeyMap.standard.plainTextTable(width: 78))

    Needs a terminal of at least 80×24; NO_COLOR=1 draws without colours. `r` writes its \
    report into the current directory.
    """

  func run() throws {
    CrashReports.makeNonInteractive()
    let failure = MainActor.assumeIsolated { () -> TerminalError? in
      let app = TerminalAppAdapter(
        model: AppModel(scheduler: LiveScheduler(), rootPathSearch: .inBackground))
      do throws(TerminalError) {
        let options = Terminal.Options(
          minimumSize: minimumAppSize, quitKeys: app.model.state.keyMap.keys(for: .quitKeyPressed),
          reportsMouse: true)
        try Terminal.run(app, options: options)
        return nil
      } catch {
        return error
      }
    }
    if let failure {
      CommandOutput.error("\(failure)")
      throw ExitCode(2)
    }
  }
}
