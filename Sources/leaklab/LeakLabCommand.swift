import ArgumentParser
import Foundation
import LeakLab
import RetainGraph
import StepScripts

/// `leaklab lint`, left out of instrumented builds (see Package.swift).
#if LEAKLAB_WITHOUT_LINT
  private let lintCommand: [any ParsableCommand.Type] = []
#else
  private let lintCommand: [any ParsableCommand.Type] = [LintCommand.self]
#endif

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
      App.self, ListCommand.self, CheckCommand.self, Explain.self, Run.self, Trap.self, OracleCommand.self,
      LeaksCommand.self, LeaksOracleCommand.self, HeapCommand.self, HeapOracleCommand.self, WatchCommand.self,
    ] + lintCommand,
    defaultSubcommand: App.self
  )

  /// Parses and runs like `ParsableCommand.main()`, except that every byte
  /// goes through ``CommandOutput`` (a report that could not be written is an
  /// error, never a crash or a silent success), and that a usage error (an
  /// unknown argument, a bad value) is one line on stderr and exit status 2,
  /// like every other bad input.
  static func main() {
    // Made first, on a fresh stack: a static's padding bytes are copied from
    // the stack, and the root search reads them as words (a stale pointer
    // there became a false root of `foundation-timer`'s Timer).
    _ = SearchLimits.default
    CommandOutput.prepare()
    let command: any ParsableCommand
    do {
      command = try parseAsRoot()
    } catch {
      finish(after: error)
    }
    do {
      var command = command
      try command.run()
    } catch {
      finish(after: error)
    }
    CommandOutput.exit(0)
  }

  /// Reports `error` as `ParsableCommand.exit(withError:)` would, through
  /// ``CommandOutput``, and exits.
  static func finish(after error: any Error) -> Never {
    if let exitCode = error as? ExitCode { CommandOutput.exit(exitCode.rawValue) }
    let code = exitCode(for: error)
    if code == .success {
      // --help, --version: the text is the report.
      let text = fullMessage(for: error)
      if !text.isEmpty { CommandOutput.line(text) }
      CommandOutput.exit(0)
    }
    let text = message(for: error)
    if code == .validationFailure {
      let firstLine = text.split(separator: "\n").first.map(String.init) ?? "invalid arguments"
      CommandOutput.error("\(DisplayText.escaped(firstLine, limit: 200)) (see leaklab --help)")
      CommandOutput.exit(2)
    }
    for line in text.split(separator: "\n") {
      CommandOutput.error(DisplayText.escaped(String(line), limit: 200))
    }
    CommandOutput.exit(code.rawValue)
  }
}
