import LeakLabTestSupport
import Testing

/// The catalogue through `LeakLabProbe` under `leaklab leaks --stacks`:
/// every leaked object of the scenarios' types is placed at a line of the
/// program's own code (a scenario's file, or ScreenKit's).
@Suite(.memoryViewSupported) struct CatalogueSitesTests {
  @Test(arguments: CatalogueLeaksTests.cycles)
  func everyLeakedScenarioObjectNamesTheLineThatMadeIt(_ id: String) throws {
    let (status, report) = try LeaksCommand.json(
      [CatalogueLeaksTests.probe, id, "--mode", "strong"], options: ["--stacks"])
    #expect(status == 1)
    let objects = report.objects.filter { CatalogueLeaksTests.isScenarioObject($0) }
    #expect(!objects.isEmpty)
    for object in objects {
      let site = try #require(object.allocation?.site, "\(object.type): no site")
      let file = site.file ?? ""
      #expect(
        file.contains("/Scenarios/") || file.contains("/Sources/ScreenKit/"),
        "\(object.type) placed in \(file)")
      #expect(site.line != nil, "\(object.type): no line")
    }
  }
}
