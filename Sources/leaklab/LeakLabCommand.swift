import ArgumentParser
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
    version: LeakLabVersion.current,
    subcommands: [
      App.self, ListCommand.self, CheckCommand.self, Explain.self, Run.self, OracleCommand.self,
    ],
    defaultSubcommand: App.self
  )
}
