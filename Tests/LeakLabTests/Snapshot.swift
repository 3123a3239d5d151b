import Foundation
import LeakLabTestSupport
import Testing
import TextGrid

/// Compares a grid with `__Snapshots__/<name>.txt` beside this file.
func expectSnapshot(
  of grid: Grid, named name: String, styled: Bool = false, sourceLocation: SourceLocation = #_sourceLocation
) {
  LeakLabTestSupport.expectSnapshot(
    of: grid, named: name, in: Snapshots.directory, styled: styled, sourceLocation: sourceLocation)
}

enum Snapshots {
  /// `Tests/LeakLabTests/__Snapshots__`.
  static let directory = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
    .appendingPathComponent("__Snapshots__")

  /// The package's root directory.
  static let packageRoot = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
    .deletingLastPathComponent().deletingLastPathComponent()
}
