import ArgumentParser
import Foundation
import LeakLab

/// `leaklab`: the terminal app by default; the other commands sit beside it.
///
/// Each subcommand lives in its own file; adding one means adding a file and a
/// line to ``configuration``. The root is synchronous so that the terminal app
/// runs on the main thread and drains the main queue itself (see ``MainRunLoop``).
@main
struct LeakLabCommand: ParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "leaklab",
    abstract: "Watch retain cycles happen: classic leak scenarios, a leak detector and retain paths.",
    discussion: App.keysHelp,
    version: LeakLabVersion.current,
    subcommands: [
      App.self, ListCommand.self, CheckCommand.self, Explain.self, Run.self, OracleCommand.self,
      LeaksCommand.self, LeaksOracleCommand.self, LintCommand.self,
    ],
    defaultSubcommand: App.self
  )

  /// Parses and runs like `ParsableCommand.main()`, except that a usage error
  /// (an unknown argument, a bad value, a missing file) is one line on
  /// stderr and exit status 2, like every other bad input.
  static func main() {
    let command: any ParsableCommand
    do {
      command = try parseAsRoot()
    } catch {
      guard exitCode(for: error) == .validationFailure else { exit(withError: error) }
      let firstLine = message(for: error).split(separator: "\n").first.map(String.init) ?? "invalid arguments"
      FileHandle.standardError.write(Data("leaklab: \(firstLine) (see leaklab --help)\n".utf8))
      Foundation.exit(2)
    }
    do {
      var command = command
      try command.run()
    } catch {
      exit(withError: error)
    }
  }
}
