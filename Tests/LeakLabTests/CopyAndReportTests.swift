import Foundation
import LeakClock
import LeakLabTestSupport
import Scenarios
import Testing
import TextGrid

@testable import LeakLab

/// `y` copies a retain path (OSC 52 through the terminal layer); `r` writes the run's report.
@MainActor
@Suite struct CopyAndReportTests {
  /// Where `r` writes: removed when the test ends.
  let folder = TemporaryFolder("leaklab-report-test")
  var directory: URL { folder.url }
  let model: AppModel
  let scheduler = ManualScheduler()

  init() {
    model = AppModel(catalogue: Catalogue.all, scheduler: scheduler, reportDirectory: folder.url)
  }

  func leakAlertScenario() {
    model.send(.scenarioSelected(id: "alert-action-capture"))
    model.send(.openKeyPressed)
    model.send(.actionKeyPressed(1))
    model.send(.actionKeyPressed(2))
    model.send(.closeKeyPressed)
    scheduler.advance(by: .seconds(1))
    model.tick()
  }

  @Test func yWithNothingLeakedSaysSo() {
    model.handle(.character("y"))
    #expect(model.state.notice == "Nothing to copy: no leak in this run")
    #expect(model.takeClipboardRequests().isEmpty)
  }

  @Test func yCopiesTheSelectedLeaksPathAndSaysSo() throws {
    leakAlertScenario()
    model.handle(.character("y"))
    let paths = model.state.report.leaks.map(\.retainPath)
    #expect(model.takeClipboardRequests() == [try #require(paths[0])])
    #expect(model.state.notice == "Copied the retain path of AlertController#1 to the clipboard (OSC 52)")
    #expect(model.takeClipboardRequests().isEmpty)
    // The detector's cursor picks the leak.
    model.handle(.tab)
    model.handle(.tab)
    model.handle(.tab)
    model.handle(.down)
    model.handle(.character("y"))
    #expect(model.takeClipboardRequests() == [try #require(paths[1])])
  }

  @Test func rWritesTheRunAsJSONAndShowsWhere() throws {
    leakAlertScenario()
    model.handle(.character("r"))
    let file = directory.appendingPathComponent("leaklab-report-1-alert-action-capture-strong.json")
    #expect(model.state.notice == "Report: \(file.path)")
    let json = try JSONSerialization.jsonObject(with: Data(contentsOf: file)) as? [String: Any]
    #expect(json?["label"] as? String == "Leaked: AlertController#1, DraftsScreen#1")
    #expect(json?["scenario"] as? String == "alert-action-capture")
    #expect(json?["mode"] as? String == "strong")
    let leaks = try #require(json?["leaks"] as? [[String: Any]])
    #expect(leaks.map { $0["name"] as? String } == ["AlertController#1", "DraftsScreen#1"])
    #expect((leaks[0]["retainPath"] as? String)?.hasPrefix("retain cycle: AlertController#1 → ") == true)
    #expect(leaks[0]["status"] as? String == "open")
    let log = try #require(json?["log"] as? [[String: Any]])
    #expect(log.contains { $0["kind"] as? String == "detected" })
    let check = try #require(json?["check"] as? [String: Any])
    #expect(check["alive"] as? Int == 4)
  }

  @Test func aReportThatCannotBeWrittenSaysWhy() {
    let model = AppModel(
      catalogue: Catalogue.all, scheduler: scheduler,
      reportDirectory: URL(fileURLWithPath: "/nonexistent-leaklab-directory"))
    model.handle(.character("r"))
    #expect(
      model.state.notice?.hasPrefix("Could not write the report to /nonexistent-leaklab-directory/") == true)
  }

  /// Issue 26, defect 8: before any run the keys the docs say are `null` were missing.
  @Test func aReportBeforeAnyRunHasEveryDocumentedKeyWithNull() throws {
    model.handle(.character("r"))
    let file = directory.appendingPathComponent("leaklab-report-0.json")
    let json = try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: file)) as? [String: Any])
    let keys = ["scenario", "title", "mode", "label", "timeSeconds", "leaks", "budgetIssues", "check", "log"]
    #expect(Set(json.keys) == Set(keys))
    for key in ["scenario", "title", "mode", "check"] {
      #expect(json[key] is NSNull, "\(key)")
    }
  }

  @Test func aLeakWithoutAResolutionHasItsKeyWithNull() throws {
    leakAlertScenario()
    model.handle(.character("r"))
    let file = directory.appendingPathComponent("leaklab-report-1-alert-action-capture-strong.json")
    let json = try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: file)) as? [String: Any])
    let leak = try #require((json["leaks"] as? [[String: Any]])?.first)
    #expect(leak["resolvedAfterSeconds"] is NSNull)
  }
}
