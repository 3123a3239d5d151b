import Foundation
import HeapModel
import ProcessLeaks
import Testing
import TextGrid

@testable import LeakLab

/// `leaklab watch`'s reducer, fed made-up censuses: the mark, the sorting,
/// the filter, the explain requests and the end of the process.
@Suite struct WatchReducerTests {
  func row(_ name: String, in state: WatchState) -> WatchState.Row? {
    state.rows.first { $0.entry.name == name }
  }

  @Test func theChangeColumnCountsFromTheFirstCensusUntilMResetsIt() throws {
    var state = WatchFixtures.state(after: [3, 5])
    #expect(row("Session", in: state)?.sinceMark == 2)
    #expect(row("Session", in: state)?.counts == [3, 5])
    _ = WatchReducer.reduce(&state, .keyPressed(.markKeyPressed))
    #expect(row("Session", in: state)?.sinceMark == 0)
    #expect(state.notice == "Mark set at snapshot 2: changes count from here")
    _ = WatchReducer.reduce(&state, .snapshotTaken(WatchFixtures.snapshot(requests: 6)))
    #expect(row("Session", in: state)?.sinceMark == 1)
    #expect(row("Buffer", in: state)?.sinceMark == 0)
  }

  @Test func sCyclesTheOrderThroughBytesCountAndChange() {
    var state = WatchFixtures.state(after: [100])
    // Session 4.8 KiB, Connection 4.0 KiB, Buffer 4 KiB: by bytes.
    #expect(state.rows.map(\.entry.name) == ["Session", "Buffer", "Connection"])
    _ = WatchReducer.reduce(&state, .keyPressed(.sortKeyPressed))
    #expect(state.order == .count)
    #expect(state.rows.map(\.entry.name) == ["Connection", "Session", "Buffer"])
    var grown = WatchFixtures.state(after: [100])
    grown.mark = HeapCensus(
      entries: [WatchFixtures.entry("Connection", count: 99, size: 40, base: 0x20_0000)], blocks: 99,
      bytes: 99 * 40)
    grown.order = .change
    // Since that mark: Session +100, Connection +1, Buffer +1 (a tie: the program's own type first).
    #expect(grown.rows.map(\.entry.name) == ["Session", "Connection", "Buffer"])
  }

  @Test func slashFiltersTheTypesAndEscClearsTheFilter() {
    var state = WatchFixtures.state(after: [3])
    _ = WatchReducer.reduce(&state, .keyPressed(.filterKeyPressed))
    #expect(state.keyContext == .filtering)
    for character in "conn" { _ = WatchReducer.reduce(&state, .filterTyped(.character(character))) }
    #expect(state.rows.map(\.entry.name) == ["Connection"])
    #expect(state.selected?.entry.name == "Connection")
    _ = WatchReducer.reduce(&state, .filterTyped(.enter))
    #expect(state.keyContext == .pane)
    #expect(state.filter == "conn")
    _ = WatchReducer.reduce(&state, .keyPressed(.closeKeyPressed))
    #expect(state.filter.isEmpty)
    #expect(state.rows.count == 3)
  }

  @Test func aFilterThatHidesTheSelectionSelectsTheProgramsOwnMatchFirst() {
    let entries = [
      WatchFixtures.entry("Session", count: 3, base: 0x10_0000),
      WatchFixtures.entry("CacheStorage", count: 1, size: 4096, base: 0x20_0000, program: false),
      WatchFixtures.entry("CachedResponse", count: 2, base: 0x30_0000),
    ]
    var state = WatchState(process: WatchFixtures.process)
    let census = HeapCensus(entries: entries, blocks: 6, bytes: 4096 + 5 * 32)
    _ = WatchReducer.reduce(
      &state, .snapshotTaken(WatchSnapshot(time: .now, stoppedMilliseconds: 1, census: census)))
    #expect(state.selected?.entry.name == "Session")
    _ = WatchReducer.reduce(&state, .keyPressed(.filterKeyPressed))
    for character in "cache" { _ = WatchReducer.reduce(&state, .filterTyped(.character(character))) }
    // CacheStorage is first by bytes, but the standard library's.
    #expect(state.rows.first?.entry.name == "CacheStorage")
    #expect(state.selected?.entry.name == "CachedResponse")
  }

  @Test func theProgramsOwnTypeIsSelectedFirstAndArrowsMoveTheSelection() {
    var state = WatchFixtures.state(after: [3])
    #expect(state.selected?.entry.name == "Session")
    // Buffer (4 KiB) comes first by bytes, but it is the standard library's.
    #expect(state.rows.first?.entry.name == "Buffer")
    _ = WatchReducer.reduce(&state, .keyPressed(.moveDownPressed))
    #expect(state.selected?.entry.name == "Connection")
    _ = WatchReducer.reduce(&state, .keyPressed(.focusNextPressed))
    #expect(state.focus == .leaks)
  }

  @Test func enterAsksWhyTheNewestNewInstanceOfTheTypeIsAliveOrOneLeakOfTheKind() {
    var state = WatchFixtures.state(after: [3, 5])
    let marked = state.mark?.entry(key: "object Server.Session")?.instances
    let effects = WatchReducer.reduce(&state, .keyPressed(.openKeyPressed))
    #expect(effects == [.explain(.type(key: "object Server.Session", since: marked))])
    #expect(state.explanation?.title == "Session: the newest of 2 new since the mark (5 live)")
    _ = WatchReducer.reduce(&state, .keyPressed(.closeKeyPressed))
    #expect(state.explanation == nil)
    _ = WatchReducer.reduce(&state, .keyPressed(.focusNextPressed))
    let leakEffects = WatchReducer.reduce(&state, .keyPressed(.openKeyPressed))
    #expect(leakEffects == [.explain(.leak(kindID: "3744f905"))])
  }

  @Test func yInTheExplainViewCopiesThePathOnScreen() {
    var state = WatchFixtures.state(after: [3, 5])
    _ = WatchReducer.reduce(&state, .keyPressed(.openKeyPressed))
    #expect(WatchReducer.reduce(&state, .keyPressed(.copyKeyPressed)).isEmpty)
    _ = WatchReducer.reduce(&state, .explained(WatchFixtures.rootPath, failure: nil))
    let effects = WatchReducer.reduce(&state, .keyPressed(.copyKeyPressed))
    #expect(effects == [.copy("global sessionLog in Server → Array<AnyObject> storage → [7]: Session")])
  }

  @Test func whenTheProcessEndsTheLastScreenStaysWithItsStatus() {
    var state = WatchFixtures.state(after: [3, 5])
    _ = WatchReducer.reduce(&state, .processEnded("exited with status 3", atExit: nil))
    let isWatching = state.isWatching
    #expect(!isWatching)
    #expect(row("Session", in: state)?.entry.count == 5)
    #expect(WatchReducer.reduce(&state, .keyPressed(.openKeyPressed)).isEmpty)
    #expect(state.notice == "The process has exited with status 3: nothing to read")
    let screen = renderWatch(state, size: Size(width: 80, height: 24)).lines
    #expect(screen[0].contains("exited with status 3"))
    #expect(screen.contains { $0.contains("3 × Connection ⇄ RequestHandler") })
  }

  @Test func aProgramReadAtItsExitShowsItsLeaksAtExit() {
    var state = WatchFixtures.state(after: [3, 5])
    _ = WatchReducer.reduce(
      &state, .processEnded("exited with status 3", atExit: WatchFixtures.snapshot(requests: 7)))
    let isAtExit = state.isAtExit
    #expect(isAtExit)
    #expect(row("Session", in: state)?.counts == [3, 5, 7])
    let screen = renderWatch(state, size: Size(width: 80, height: 24)).lines
    #expect(screen[0].contains("exited with status 3: read at its exit"))
    #expect(screen.contains { $0.contains("Leaks at exit · 1 kind") })
  }

  @Test func aFailedSnapshotIsOneLineInTheHeaderUntilTheNextSucceeds() {
    var state = WatchFixtures.state(after: [3])
    _ = WatchReducer.reduce(&state, .snapshotFailed("ptrace is not permitted here (Operation not permitted)"))
    #expect(
      renderWatch(state, size: Size(width: 120, height: 40)).lines[0].contains("ptrace is not permitted"))
    _ = WatchReducer.reduce(&state, .snapshotTaken(WatchFixtures.snapshot(requests: 4)))
    #expect(state.failure == nil)
  }

  @Test func pAndIPauseAndChangeThePeriod() {
    var state = WatchFixtures.state(after: [3])
    _ = WatchReducer.reduce(&state, .keyPressed(.pauseKeyPressed))
    let isWatching = state.isWatching
    #expect(!isWatching)
    _ = WatchReducer.reduce(&state, .keyPressed(.periodKeyPressed))
    #expect(state.period == 5)
    #expect(state.notice == "A snapshot every 5 s")
  }

  @Test func theStatusBarAndHelpComeFromTheWatchKeyMap() {
    var state = WatchFixtures.state(after: [3])
    let bar = renderWatch(state, size: Size(width: 120, height: 40)).lines.last ?? ""
    for (keys, hint) in KeyMap.watch.statusHints(in: .pane) { #expect(bar.contains("\(keys) \(hint)")) }
    _ = WatchReducer.reduce(&state, .keyPressed(.helpKeyPressed))
    let screen = renderWatch(state, size: Size(width: 120, height: 40)).lines.joined(separator: "\n")
    #expect(screen.contains("Set the mark"))
  }
}

// MARK: --stacks

extension WatchReducerTests {
  @Test func theInstancesPaneNamesTheLineThatAllocatedTheMostOfTheSelectedType() throws {
    var recorded = WatchFixtures.state(after: [3])
    _ = WatchReducer.reduce(&recorded, .snapshotTaken(WatchFixtures.recordedSnapshot(requests: 5)))
    let session = try #require(row("Session", in: recorded))
    let lines = WatchView.instanceLines(session, state: recorded, width: 80).map(\.0)
    #expect(lines.contains("4 of 5 allocated in serve(_:) at Sources/Server/main.swift:38"))
    let connection = try #require(row("Connection", in: recorded))
    #expect(
      !WatchView.instanceLines(connection, state: recorded, width: 80).contains { $0.0.contains("allocated") }
    )
  }

  @Test func anExplanationKeepsItsSiteUntilTheViewCloses() {
    var state = WatchFixtures.state(after: [3])
    _ = WatchReducer.reduce(&state, .keyPressed(.openKeyPressed))
    _ = WatchReducer.reduce(
      &state, .explained(WatchFixtures.rootPath, site: WatchFixtures.sessionSite, failure: nil))
    #expect(state.explanation?.site == WatchFixtures.sessionSite)
    let text = WatchExplainView.content(state.explanation!, width: 200, room: 40).lines
    #expect(
      text.contains {
        $0.hasPrefix(
          "allocated in serve(_:) at Sources/Server/main.swift:38, called from main at Sources/Server/main.swift:61"
        )
      })
    _ = WatchReducer.reduce(&state, .keyPressed(.closeKeyPressed))
    #expect(state.explanation == nil)
  }
}
