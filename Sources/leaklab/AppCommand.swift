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
    discussion: """
      Keys: ↑↓/j k select, Enter opens, Esc closes, w switches strong/weak, 1–9 or Space tap \
      actions, o cycles the overlay, e explains retain paths, ? shows every key, q quits.
      Needs a terminal of at least 80×24; NO_COLOR=1 draws without colours.
      """
  )

  func run() throws {
    CrashReports.makeNonInteractive()
    let failure = MainActor.assumeIsolated { () -> TerminalError? in
      let app = TerminalAppAdapter(model: AppModel(scheduler: LiveScheduler()))
      do throws(TerminalError) {
        try Terminal.run(app, options: Terminal.Options(minimumSize: minimumAppSize))
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
