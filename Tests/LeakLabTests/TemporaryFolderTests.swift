import Foundation
import LeakLabTestSupport
import MemoryView
import Testing

/// The tests' scratch folders: gone, with their files, when the suite that
/// holds one is.
@Suite struct TemporaryFolderTests {
  @Test func theFolderAndItsFilesGoWithTheLastReference() throws {
    var folder: TemporaryFolder? = TemporaryFolder("leaklab-folder-test")
    let path = try #require(folder?.path)
    let file = try #require(try folder?.write("text\n", to: "a.txt"))
    #expect(file == path + "/a.txt")
    #expect(SmallFile.text(file) == "text\n")
    folder = nil
    #expect(!FileManager.default.fileExists(atPath: path))
  }
}
