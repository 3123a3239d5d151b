import ArgumentParser

/// The `leaklab` command: the root that subcommands hang off.
///
/// Each subcommand lives in its own file (`ListCommand.swift`, `CheckCommand.swift`);
/// adding one means adding a file and a line to ``configuration``.
@main
struct LeakLabCommand: AsyncParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "leaklab",
    abstract: "Watch memory leaks happen: a catalogue of classic Swift retain cycles, leaky and fixed.",
    version: "0.1.0",
    subcommands: [ListCommand.self, CheckCommand.self]
  )
}
