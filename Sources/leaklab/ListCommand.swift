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
    for scenario in Catalogue.all {
      print(scenario.id.padded(toWidth: width) + "  " + scenario.title)
    }
  }
}
