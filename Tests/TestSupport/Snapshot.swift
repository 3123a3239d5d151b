import Foundation
import Testing
import TextGrid

/// Compares a grid's text with the snapshot stored as `<directory>/<name>.txt`.
///
/// With `LEAKLAB_RECORD_SNAPSHOTS=1` the snapshot is written instead, and the
/// test fails so that a recording run never passes by accident.
public func expectSnapshot(
  of grid: Grid, named name: String, in directory: URL, styled: Bool = false,
  sourceLocation: SourceLocation = #_sourceLocation
) {
  let file = directory.appendingPathComponent("\(name).txt")
  let actual = (styled ? grid.styledLines : grid.lines).joined(separator: "\n") + "\n"
  if ProcessInfo.processInfo.environment["LEAKLAB_RECORD_SNAPSHOTS"] == "1" {
    try? FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    try? actual.write(to: file, atomically: true, encoding: .utf8)
    Issue.record(
      "Recorded snapshot \(file.lastPathComponent); run again without LEAKLAB_RECORD_SNAPSHOTS",
      sourceLocation: sourceLocation)
    return
  }
  guard let expected = try? String(contentsOf: file, encoding: .utf8) else {
    Issue.record(
      "No snapshot \(file.lastPathComponent); record it with LEAKLAB_RECORD_SNAPSHOTS=1",
      sourceLocation: sourceLocation)
    return
  }
  #expect(actual == expected, "snapshot \(name) differs", sourceLocation: sourceLocation)
}
