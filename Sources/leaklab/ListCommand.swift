import ArgumentParser
import Scenarios
import TextGrid

/// `leaklab list`: the catalogue's ids and titles.
struct ListCommand: ParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "list",
    abstract: "List the scenarios: id and title."
  )

  func run() {
    let width = Catalogue.all.map(\.id.count).max() ?? 0
    CommandOutput.lines(Catalogue.all.map { $0.id.padded(toWidth: width) + "  " + $0.title })
  }
}
