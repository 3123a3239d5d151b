import ArgumentParser
import Scenarios

/// `leaklab list`: the catalogue's ids and titles.
struct ListCommand: ParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "list",
    abstract: "List the scenarios: id and title."
  )

  func run() {
    let width = Catalogue.all.map(\.id.count).max() ?? 0
    CommandOutput.lines(Catalogue.all.map { $0.id.padding(to: width) + "  " + $0.title })
  }
}

extension String {
  /// The string padded with spaces to `width` characters.
  func padding(to width: Int) -> String {
    count >= width ? self : self + String(repeating: " ", count: width - count)
  }
}
