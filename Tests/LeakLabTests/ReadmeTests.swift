import Foundation
import LeakLabTestSupport
import Testing

@testable import LeakLab

/// What the READMEs show is what the code does: the key table and the pictures.
@Suite struct ReadmeTests {
  func contents(of path: String) throws -> String {
    try String(contentsOf: packageRoot.appendingPathComponent(path), encoding: .utf8)
  }

  func snapshot(_ name: String) throws -> String {
    try String(contentsOf: snapshotDirectory().appendingPathComponent("\(name).txt"), encoding: .utf8)
  }

  @Test func theKeyTableIsTheKeyMapsTable() throws {
    let table = KeyMap.standard.markdownTable
    #expect(try contents(of: "docs/app.md").contains(table), "update the key table in docs/app.md:\n\(table)")
  }

  @Test func theWatchKeyTableIsTheWatchKeyMapsTable() throws {
    let table = KeyMap.watch.markdownTable
    #expect(
      try contents(of: "docs/watch.md").contains(table), "update the key table in docs/watch.md:\n\(table)")
  }

  @Test func thePictureIsTheRecordedSnapshotOfTheRealCatalogue() throws {
    #expect(
      try contents(of: "README.md").contains(snapshot("main-readme-100x30")),
      "paste __Snapshots__/main-readme-100x30.txt into README.md")
  }

  @Test func theAppReadmePictureIsTheRecordedSnapshotOfTheSampleCatalogue() throws {
    #expect(
      try contents(of: "Sources/LeakLab/README.md").contains(snapshot("readme-100x30")),
      "paste __Snapshots__/readme-100x30.txt into Sources/LeakLab/README.md")
  }

  @Test func theExplainViewPictureIsTheRecordedSnapshotAndTheImageIsInTheRepository() throws {
    let readme = try contents(of: "README.md")
    let picture = try snapshot("readme-explain-100x30")
    #expect(
      readme.contains(picture),
      "paste __Snapshots__/readme-explain-100x30.txt into README.md")
    #expect(readme.contains("](docs/images/alert-action-capture.svg)"))
    #expect(
      FileManager.default.fileExists(
        atPath: packageRoot.appendingPathComponent("docs/images/alert-action-capture.svg").path))
  }
}
