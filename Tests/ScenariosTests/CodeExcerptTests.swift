import Foundation
import LeakLabTestSupport
import Testing

@testable import Scenarios

@Suite struct CodeExcerptTests {
  nonisolated static let ids = Catalogue.all.map(\.id)

  // MARK: What is shown is what runs

  @Test(arguments: ids)
  func theEmbeddedCodeIsTheMarkedRegionOfTheScenariosOwnSource(id: String) throws {
    let scenario = try #require(Catalogue.scenario(id: id))
    #expect(scenario.sourceFile.hasPrefix("Scenarios/"))
    let file = packageRoot.appendingPathComponent(scenario.sourceFile)
    let contents = try String(contentsOf: file, encoding: .utf8)
    let region = try #require(
      CodeExcerpt.region(inFile: contents), "\(scenario.sourceFile) has no marked region")
    #expect(
      scenario.code.source == region,
      """
      The code shown for \(id) drifted from \(scenario.sourceFile). Embed the region again:
      \(region)
      """)
  }

  @Test(arguments: ids)
  func eachFormShowsItsOwnMarkedLinesAndNotTheOthers(id: String) throws {
    let scenario = try #require(Catalogue.scenario(id: id))
    let strong = scenario.codeLines(for: .strong)
    let weak = scenario.codeLines(for: .weak)
    // The fix changes a line, or only adds one (`self.context = nil` in `handler-context`).
    #expect(weak.contains { $0.role == .weak })
    #expect(strong.contains { $0.role == .strong } || id == "handler-context", "\(id): no line of its own")
    #expect(!strong.contains { $0.role == .weak })
    #expect(!weak.contains { $0.role == .strong })
    #expect(strong.filter { $0.role == .common } == weak.filter { $0.role == .common })
    for line in strong + weak {
      #expect(!line.text.contains("leaklab:"), "marker left in a shown line: \(line.text)")
    }
  }

  @Test func everyScenarioFileIsInTheCatalogue() throws {
    let folder = packageRoot.appendingPathComponent("Scenarios")
    let files = try FileManager.default.contentsOfDirectory(atPath: folder.path)
    let withRegion = try files.filter { name in
      guard name.hasSuffix(".swift") else { return false }
      let contents = try String(contentsOf: folder.appendingPathComponent(name), encoding: .utf8)
      return CodeExcerpt.region(inFile: contents) != nil
    }
    #expect(Set(withRegion.map { "Scenarios/" + $0 }) == Set(Catalogue.all.map(\.sourceFile)))
  }

  // MARK: Parsing

  static let sample = """
    func load() {
      switch mode {  // leaklab:toggle
      case .strong:  // leaklab:toggle
        service.run(completion: handle)  // leaklab:strong
      case .weak:  // leaklab:toggle
        service.run { [weak self] in  // leaklab:weak
          self?.handle($0)  // leaklab:weak
        }  // leaklab:weak
      }  // leaklab:toggle
      done()
    }
    """

  @Test func toggleLinesAreHiddenAndTheLinesTheyPickMoveToTheirIndentation() {
    let excerpt = CodeExcerpt(Self.sample)
    #expect(
      excerpt.text(for: .strong) == """
        func load() {
          service.run(completion: handle)
          done()
        }
        """)
    #expect(
      excerpt.text(for: .weak) == """
        func load() {
          service.run { [weak self] in
            self?.handle($0)
          }
          done()
        }
        """)
    #expect(excerpt.lines(for: .strong).map(\.role) == [.common, .strong, .common, .common])
  }

  @Test func blankLinesLeftByTheOtherFormCollapse() {
    let excerpt = CodeExcerpt(
      """
      protocol P {}

      final class A {}  // leaklab:strong

      final class B {}  // leaklab:weak
      """)
    #expect(excerpt.text(for: .strong) == "protocol P {}\n\nfinal class A {}")
    #expect(excerpt.text(for: .weak) == "protocol P {}\n\nfinal class B {}")
  }

  @Test func aRegionIsCutBetweenTheMarkersAndDedented() {
    let file = """
      import X

      final class A {
        // leaklab:code begin
        var b = 1  // leaklab:strong

        weak var c: A?  // leaklab:weak
        // leaklab:code end
      }
      """
    #expect(
      CodeExcerpt.region(inFile: file) == """
        var b = 1  // leaklab:strong

        weak var c: A?  // leaklab:weak
        """)
    #expect(CodeExcerpt.region(inFile: "no markers") == nil)
    #expect(CodeExcerpt.region(inFile: "// leaklab:code begin\nopen only") == nil)
  }
}
