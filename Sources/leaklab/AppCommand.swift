import ArgumentParser
import Foundation
import LeakClock
import LeakLab
import LeakLabTerminal
import TerminalAutomation
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
    report into the current directory. A guided tour starts by itself until it has been finished or \
    hidden once (remembered in $XDG_CONFIG_HOME/leaklab, else ~/.config/leaklab); LEAKLAB_TOUR=off \
    keeps it hidden.
    """

  /// Where the app remembers that the tour was finished or hidden; `nil` with `LEAKLAB_TOUR=off`.
  static func tourMemory(environment: [String: String] = ProcessInfo.processInfo.environment) -> URL? {
    guard environment["LEAKLAB_TOUR"] != "off" else { return nil }
    let config =
      environment["XDG_CONFIG_HOME"].flatMap { $0.isEmpty ? nil : URL(fileURLWithPath: $0) }
      ?? URL(fileURLWithPath: environment["HOME"] ?? NSHomeDirectory()).appendingPathComponent(".config")
    return config.appendingPathComponent("leaklab/tour-done")
  }

  /// Runs `leaklab trap ID` in a child process and says how it crashed, in one line.
  @Sendable static func runTrap(_ id: String) -> String {
    let executable =
      (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe"))
      ?? CommandLine.arguments[0]
    var environment = ProcessInfo.processInfo.environment
    environment["SWIFT_BACKTRACE"] = "enable=no"
    let command = "leaklab trap \(id)"
    guard let result = try? ChildProcess.run([executable, "trap", id], environment: environment) else {
      return "\(command) could not be started"
    }
    let fatal = result.standardError.split(separator: "\n").first { $0.contains("Fatal error") }
    let ending =
      result.status > 128 ? "killed by signal \(result.status - 128)" : "exit status \(result.status)"
    return "\(command), in a child process: \(fatal.map(String.init) ?? "no crash message") (\(ending))"
  }

  @Flag(
    help: "Run with the allocation recorder preloaded: the explain view says where each leak was allocated.")
  var stacks = false

  func run() throws {
    CrashReports.makeNonInteractive()
    // After the crash reporter's restart: the recorder leaves LD_PRELOAD when it loads.
    if stacks { RecorderPreload.relaunchRecording() }
    let failure = MainActor.assumeIsolated { () -> TerminalError? in
      let app = TerminalAppAdapter(
        model: AppModel(
          scheduler: LiveScheduler(), rootPathSearch: .inBackground, tourMemory: Self.tourMemory(),
          trapRunner: Self.runTrap))
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
