import Foundation
import Testing
import TextGrid

/// Compares a grid's text with the snapshot `__Snapshots__/<name>.txt` beside the calling test file.
///
/// A mismatch fails the test with a line diff (each differing line, expected
/// then actual). With `LEAKLAB_RECORD_SNAPSHOTS=1` the snapshot is written
/// instead, and the test fails so that a recording run never passes by accident.
///
/// ```swift
/// expectSnapshot(of: render(state, size: Size(width: 80, height: 24)), named: "start-80x24")
/// ```
public func expectSnapshot(
  of grid: Grid, named name: String, styled: Bool = false, filePath: String = #filePath,
  sourceLocation: SourceLocation = #_sourceLocation
) {
  expectSnapshot(
    ofText: (styled ? grid.styledLines : grid.lines).joined(separator: "\n") + "\n", named: name,
    filePath: filePath, sourceLocation: sourceLocation)
}

/// Compares a text (a frame another process printed, say) with the snapshot
/// `__Snapshots__/<name>.txt` beside the calling test file, as
/// ``expectSnapshot(of:named:styled:filePath:sourceLocation:)`` does for a grid.
///
/// ```swift
/// expectSnapshot(ofText: run.output, named: "explain-dispatch-source-timer-80x24")
/// ```
public func expectSnapshot(
  ofText actual: String, named name: String, filePath: String = #filePath,
  sourceLocation: SourceLocation = #_sourceLocation
) {
  let directory = snapshotDirectory(forTestFile: filePath)
  let file = directory.appendingPathComponent("\(name).txt")
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
  if let difference = lineDifference(expected: expected, actual: actual) {
    Issue.record(
      "Snapshot \(name) differs (- expected, + actual; LEAKLAB_RECORD_SNAPSHOTS=1 records it):\n\(difference)",
      sourceLocation: sourceLocation)
  }
}

/// The `__Snapshots__` folder beside a test file.
public func snapshotDirectory(forTestFile filePath: String = #filePath) -> URL {
  URL(fileURLWithPath: filePath).deletingLastPathComponent().appendingPathComponent("__Snapshots__")
}

/// The lines that differ between two texts, each as `line N:` then `- expected` and `+ actual`;
/// `nil` when the texts are equal.
///
/// At most `limit` differing lines are listed; a line count that differs is said first.
///
/// ```swift
/// lineDifference(expected: "a\nb\n", actual: "a\nc\n")  // "line 2:\n- b\n+ c"
/// ```
public func lineDifference(expected: String, actual: String, limit: Int = 12) -> String? {
  guard expected != actual else { return nil }
  let old = expected.split(separator: "\n", omittingEmptySubsequences: false)
  let new = actual.split(separator: "\n", omittingEmptySubsequences: false)
  var report: [String] = []
  if old.count != new.count { report.append("\(old.count) lines expected, \(new.count) actual") }
  var shown = 0
  for index in 0..<max(old.count, new.count) {
    let before = index < old.count ? old[index] : nil
    let after = index < new.count ? new[index] : nil
    if before == after { continue }
    if shown == limit {
      report.append("…")
      break
    }
    report += [
      "line \(index + 1):", before.map { "- \($0)" } ?? "- (no line)",
      after.map { "+ \($0)" } ?? "+ (no line)",
    ]
    shown += 1
  }
  return report.joined(separator: "\n")
}
