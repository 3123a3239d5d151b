import Foundation
import HeapModel
import ProcessLeaks
import Testing
import TextGrid

@testable import LeakLab

/// The watch model's own work: keys through `KeyMap.watch`, the report `r`
/// writes, the text `y` hands to the terminal. No snapshot is taken (no tick).
@MainActor
@Suite struct WatchModelTests {
  /// A source nothing is asked of in these tests.
  struct IdleSource: WatchSource {
    var process: WatchState.Process { WatchFixtures.process }
    var exitSnapshot: WatchSnapshot? { nil }
    func endingDescription() -> String? { nil }
    func snapshot() throws -> WatchSnapshot { WatchFixtures.snapshot(requests: 1) }
    func explain(_ subject: WatchedProcess.Subject) throws -> WatchedProcess.Explanation? { nil }
  }

  let directory = FileManager.default.temporaryDirectory.appendingPathComponent(
    "leaklab-watch-model-\(UUID().uuidString)")

  @Test func rWritesTheReportAndTheStatusBarNamesItsFile() throws {
    try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: directory) }
    let model = WatchModel(source: IdleSource(), reportDirectory: directory)
    model.send(.snapshotTaken(WatchFixtures.snapshot(requests: 3)))
    model.send(.snapshotTaken(WatchFixtures.snapshot(requests: 5)))
    model.handle(.character("r"))
    #expect(model.state.notice == "Report: ./leaklab-watch-Server-4242-2.json")
    let data = try Data(contentsOf: directory.appendingPathComponent("leaklab-watch-Server-4242-2.json"))
    let json = try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
    let types = try #require(json["types"] as? [[String: Any]])
    let session = try #require(types.first { $0["name"] as? String == "Session" })
    #expect(session["sinceMark"] as? Int == 2)
    #expect(session["counts"] as? [Int] == [3, 5])
    #expect((json["leaks"] as? [[String: Any]])?.first?["count"] as? Int == 3)
  }

  @Test func yHandsThePathOnScreenToTheTerminal() {
    let model = WatchModel(source: IdleSource())
    model.send(.snapshotTaken(WatchFixtures.snapshot(requests: 3)))
    model.handle(.enter)
    model.send(.explained(WatchFixtures.rootPath, failure: nil))
    model.handle(.character("y"))
    #expect(model.takeClipboardRequests() == [WatchFixtures.rootPath.text])
    #expect(model.takeClipboardRequests().isEmpty)
  }

  @Test func whileTheFilterIsTypedKeysAreText() {
    let model = WatchModel(source: IdleSource())
    model.send(.snapshotTaken(WatchFixtures.snapshot(requests: 3)))
    model.handle(.character("/"))
    model.handle(.character("q"))
    let quitWhileTyping = model.state.isQuitRequested
    #expect(!quitWhileTyping)
    #expect(model.state.filter == "q")
    model.handle(.escape)
    model.handle(.character("q"))
    let quit = model.state.isQuitRequested
    #expect(quit)
  }
}

// MARK: --stacks

extension WatchModelTests {
  @Test func theReportGivesEachTypeAndLeakTheSiteThatAllocatedIt() throws {
    try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: directory) }
    let model = WatchModel(source: IdleSource(), reportDirectory: directory)
    model.send(.snapshotTaken(WatchFixtures.recordedSnapshot(requests: 5)))
    model.handle(.character("r"))
    let data = try Data(contentsOf: directory.appendingPathComponent("leaklab-watch-Server-4242-1.json"))
    let json = try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
    let types = try #require(json["types"] as? [[String: Any]])
    let session = try #require(types.first { $0["name"] as? String == "Session" })
    let allocation = try #require(session["allocation"] as? [String: Any])
    #expect(
      allocation["summary"] as? String
        == "allocated in serve(_:) at Sources/Server/main.swift:38, called from main at Sources/Server/main.swift:61"
    )
    let frames = try #require(allocation["frames"] as? [[String: Any]])
    let program = try #require(allocation["programFrame"] as? Int)
    #expect(frames[program]["line"] as? Int == 38)
    #expect(session["allocatedThere"] as? Int == 4)
    #expect(types.first { $0["name"] as? String == "Connection" }?["allocation"] == nil)
    let leak = try #require((json["leaks"] as? [[String: Any]])?.first)
    #expect((leak["allocation"] as? [String: Any])?["programFrame"] as? Int == program)
  }
}
