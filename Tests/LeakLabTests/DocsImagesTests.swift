import Foundation
import LeakLab
import LeakLabTestSupport
import Scenarios
import Testing

/// The README's rendered DOT is made by `make docs-images` from the real
/// program: these tests fail when it no longer matches what the program prints.
@MainActor
@Suite struct DocsImagesTests {
  private let images = packageRoot.appendingPathComponent("docs/images")

  @Test("docs/images/alert-action-capture.dot is what leaklab explain --format dot prints (make docs-images)")
  func dotIsCurrent() throws {
    let committed = try String(
      contentsOf: images.appendingPathComponent("alert-action-capture.dot"), encoding: .utf8)
    let current = try ScenarioExplanation(Catalogue.alertActionCapture, mode: .strong).output(.dot)
    #expect(committed == current, "run make docs-images")
  }

  @Test("docs/images/alert-action-capture.svg is Graphviz's rendering of that DOT")
  func svgIsCurrent() throws {
    let dot = try String(
      contentsOf: images.appendingPathComponent("alert-action-capture.dot"), encoding: .utf8)
    let committed = try String(
      contentsOf: images.appendingPathComponent("alert-action-capture.svg"), encoding: .utf8)
    let rendered = try Graphviz.svg(from: dot)
    #expect(texts(committed) == texts(rendered), "run make docs-images")
    #expect(texts(committed).contains("captures[1] (strong)"))
  }

  /// The text elements of an SVG, in order: what it says, whatever Graphviz version placed it.
  private func texts(_ svg: String) -> [String] {
    svg.components(separatedBy: "<text").dropFirst().compactMap { element in
      element.split(separator: ">", maxSplits: 1).last?.components(separatedBy: "</text").first
    }
  }
}
