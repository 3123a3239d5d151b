import Foundation
import Testing

@testable import MemoryView

/// Small files read whole. The empty file is the case that matters: read
/// with Foundation's `String(contentsOfFile:)` it leaks 4 KiB per read on
/// Linux, and the ASan lane's LeakSanitizer fails the run on such a leak
/// (it did, on a status file polled before the shell wrote it).
@Suite struct SmallFileTests {
  let directory: String = {
    let path = NSTemporaryDirectory() + "leaklab-smallfile-\(UUID().uuidString)"
    try? FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
    return path
  }()

  func write(_ text: String, named name: String) throws -> String {
    let path = directory + "/" + name
    try text.write(toFile: path, atomically: false, encoding: .utf8)
    return path
  }

  @Test func anEmptyFileIsEmptyTextEveryTime() throws {
    let path = try write("", named: "empty")
    defer { try? FileManager.default.removeItem(atPath: directory) }
    for _ in 0..<100 { #expect(SmallFile.text(path) == "") }
  }

  @Test func aFileLargerThanOneReadComesWhole() throws {
    let text = String(repeating: "0123456789abcdef", count: 1000) + "end\n"
    let path = try write(text, named: "large")
    defer { try? FileManager.default.removeItem(atPath: directory) }
    #expect(SmallFile.text(path) == text)
  }

  @Test func aProcFileWhoseSizeReadsZeroHasItsText() throws {
    let text = try #require(SmallFile.text("/proc/self/status"))
    #expect(text.hasPrefix("Name:"))
    #expect(text.contains("\nPid:\t\(getpid())\n"))
  }

  @Test func aMissingFileOrADirectoryIsNil() throws {
    defer { try? FileManager.default.removeItem(atPath: directory) }
    #expect(SmallFile.text(directory + "/missing") == nil)
    #expect(SmallFile.text(directory) == nil)
  }
}
