import LeakLabTestSupport
import Testing
import TextGrid

@testable import LeakLab

/// Text snapshots of `leaklab watch` at 80×24 and 120×40, fed made-up censuses.
///
/// Re-record with `LEAKLAB_RECORD_SNAPSHOTS=1 swift test --filter WatchSnapshotTests`.
@Suite struct WatchSnapshotTests {
  static let sizes = [Size(width: 80, height: 24), Size(width: 120, height: 40)]

  func expectSnapshots(
    _ state: WatchState, named name: String, sourceLocation: SourceLocation = #_sourceLocation
  ) {
    for size in Self.sizes {
      expectSnapshot(
        of: renderWatch(state, size: size), named: "watch-\(name)-\(size.width)x\(size.height)",
        sourceLocation: sourceLocation)
    }
  }

  @Test func aGrowingServer() {
    expectSnapshots(WatchFixtures.state(after: [20, 40, 60, 120]), named: "growing")
  }

  @Test func whyASessionIsAlive() {
    var state = WatchFixtures.state(after: [20, 40])
    _ = WatchReducer.reduce(&state, .keyPressed(.openKeyPressed))
    _ = WatchReducer.reduce(&state, .explained(WatchFixtures.rootPath, failure: nil))
    expectSnapshots(state, named: "explain")
  }

  @Test func theProcessExited() {
    var state = WatchFixtures.state(after: [20, 40])
    _ = WatchReducer.reduce(&state, .processEnded("exited with status 3", atExit: nil))
    expectSnapshots(state, named: "exited")
  }
}

// MARK: --stacks

extension WatchSnapshotTests {
  @Test func theInstancesPaneSaysWhereTheSelectedTypeWasAllocated() {
    var state = WatchFixtures.state(after: [20])
    _ = WatchReducer.reduce(&state, .snapshotTaken(WatchFixtures.recordedSnapshot(requests: 40)))
    expectSnapshots(state, named: "stacks")
  }

  @Test func theExplainViewSaysWhereTheInstanceWasAllocated() {
    var state = WatchFixtures.state(after: [20, 40])
    _ = WatchReducer.reduce(&state, .keyPressed(.openKeyPressed))
    _ = WatchReducer.reduce(
      &state, .explained(WatchFixtures.rootPath, site: WatchFixtures.sessionSite, failure: nil))
    expectSnapshots(state, named: "explain-stacks")
  }
}
