import Foundation
import LeakLabTestSupport
import Testing

@testable import MemoryView

/// Small files read whole. The empty file is the case that matters: read
/// with Foundation's `String(contentsOfFile:)` it leaks 4 KiB per read on
/// Linux, and the ASan lane's LeakSanitizer fails the run on such a leak
/// (it did, on a status file polled before the shell wrote it).
@Suite struct SmallFileTests {
  /// The test's files, removed when it ends.
  let folder = TemporaryFolder("leaklab-smallfile")

  @Test func anEmptyFileIsEmptyTextEveryTime() throws {
    let path = try folder.write("", to: "empty")
    for _ in 0..<100 { #expect(SmallFile.text(path) == "") }
  }

  @Test func aFileLargerThanOneReadComesWhole() throws {
    let text = String(repeating: "0123456789abcdef", count: 1000) + "end\n"
    let path = try folder.write(text, to: "large")
    #expect(SmallFile.text(path) == text)
  }

  @Test func aProcFileWhoseSizeReadsZeroHasItsText() throws {
    let text = try #require(SmallFile.text("/proc/self/status"))
    #expect(text.hasPrefix("Name:"))
    #expect(text.contains("\nPid:\t\(getpid())\n"))
  }

  @Test func aMissingFileOrADirectoryIsNil() throws {
    #expect(SmallFile.text(folder.file("missing").path) == nil)
    #expect(SmallFile.text(folder.path) == nil)
  }
}
