import Foundation
import LeakLabTestSupport
import Testing
import TextGrid

/// Compares a grid with `__Snapshots__/<name>.txt` beside this file.
func expectSnapshot(
  of grid: Grid, named name: String, styled: Bool = false, sourceLocation: SourceLocation = #_sourceLocation
) {
  let directory = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
    .appendingPathComponent("__Snapshots__")
  LeakLabTestSupport.expectSnapshot(
    of: grid, named: name, in: directory, styled: styled, sourceLocation: sourceLocation)
}
