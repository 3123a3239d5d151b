import Foundation
import Scenarios
import Testing
import TextGrid

@testable import LeakLab

/// Issue 26: at 80×24 every scenario's "why" and its fix are reachable, by
/// scrolling, in the About pane and in the explain view. Each test scrolls
/// a line at a time from the top to the bottom and reads every frame.
@MainActor
@Suite struct WhyAndFixReachableTests {
  static let size = Size(width: 80, height: 24)

  /// The texts a learner must be able to read, whitespace dropped: wrapping
  /// (and breaking a long identifier) only moves the line breaks.
  static func essentials(_ scenario: Scenario) -> [(name: String, text: String)] {
    [(name: "fix", text: squeezed(scenario.fix)), (name: "why", text: squeezed(scenario.whyItLeaks))]
  }

  static func squeezed(_ text: String) -> String {
    String(text.filter { !$0.isWhitespace })
  }

  /// The text inside the box whose top border names `title`, from the top
  /// to the bottom of its scrolling, a line at a time: each frame's first row,
  /// then the whole last frame.
  static func scrolledText(
    of model: AppModel, box title: String, scrolled: () -> ScrollPosition, lineDown: () -> Void
  ) -> String {
    var text = ""
    var rows = boxRows(in: model.frame(for: size).lines, title: title)
    for _ in 0..<500 {
      let position = scrolled()
      lineDown()
      if scrolled() == position { break }
      text += rows.first ?? ""
      rows = boxRows(in: model.frame(for: size).lines, title: title)
    }
    return squeezed(text + rows.joined())
  }

  /// The rows of the box whose top border holds ` title `, between its side borders.
  static func boxRows(in lines: [String], title: String) -> [String] {
    guard let top = lines.firstIndex(where: { $0.contains("─ \(title) ") }) else { return [] }
    let border = Array(lines[top])
    guard let left = border.firstIndex(of: "┌"), let right = border[left...].firstIndex(of: "┐") else {
      return []
    }
    var rows: [String] = []
    for line in lines[(top + 1)...] {
      let characters = Array(line)
      guard characters.count > right, characters[left] == "│" else { break }
      rows.append(String(characters[(left + 1)..<right]))
    }
    return rows
  }

  @Test(
    "Every scenario's fix and why are reachable in the About pane at 80×24",
    arguments: Catalogue.all.map(\.id))
  func aboutPane(id: String) throws {
    let scenario = try #require(Catalogue.scenario(id: id))
    let driver = HeadlessStepDriver()
    let model = driver.model
    model.resize(to: Self.size)
    model.send(.scenarioSelected(id: scenario.id))
    model.send(.focusNextPressed)
    #expect(model.state.focus == .about)
    let text = Self.scrolledText(
      of: model, box: "About", scrolled: { model.state.scroll[.about] ?? .top },
      lineDown: { model.send(.scrollKeyPressed(.lineDown)) })
    for (name, essential) in Self.essentials(scenario) {
      #expect(text.contains(essential), "the \(name) of \(scenario.id) is not reachable: \(text)")
    }
  }

  @Test(
    "Every scenario's fix and why are reachable in its explain view at 80×24",
    arguments: Catalogue.all.map(\.id))
  func explainView(id: String) throws {
    let scenario = try #require(Catalogue.scenario(id: id))
    let driver = HeadlessStepDriver()
    let model = driver.model
    model.resize(to: Self.size)
    ScenarioExplanation.drive(scenario, mode: .strong, on: driver)
    model.send(.explainKeyPressed)
    #expect(model.state.keyContext == .explain)
    let text = Self.scrolledText(
      of: model, box: "Why is it alive?", scrolled: { model.state.explainScroll },
      lineDown: { model.send(.scrollKeyPressed(.lineDown)) })
    for (name, essential) in Self.essentials(scenario) {
      #expect(text.contains(essential), "the \(name) of \(scenario.id) is not reachable: \(text)")
    }
  }
}
