import ArgumentParser
import LeakLab

/// `leaklab`: the terminal app by default; the other commands sit beside it.
@main
struct LeakLabCommand: ParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "leaklab",
    abstract: "Watch retain cycles happen: classic leak scenarios, a leak detector and retain paths.",
    version: LeakLabVersion.current,
    subcommands: [App.self],
    defaultSubcommand: App.self
  )
}
