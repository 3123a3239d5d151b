import Foundation
import LeakClock
import Testing

@testable import Scenarios

@MainActor
@Suite struct CheckOutputTests {
  @Test func aResultEncodesTheDocumentedJSONSchema() async throws {
    let result = await ScenarioRunner.run(Catalogue.delayedDispatch, mode: .strong)
    let data = try JSONEncoder().encode([result])
    let array = try #require(try JSONSerialization.jsonObject(with: data) as? [[String: Any]])
    let object = try #require(array.first)
    #expect(
      Set(object.keys) == [
        "scenario", "title", "mode", "expected", "detected", "leaked", "resolvedAfterSeconds", "match",
        "expectedLeaked", "expectedResolvedAfterSeconds", "labelAfterGrace",
      ])
    #expect(object["scenario"] as? String == "delayed-dispatch")
    #expect(object["mode"] as? String == "strong")
    #expect(object["expected"] as? String == "temporary")
    #expect(object["detected"] as? String == "temporary")
    #expect(object["leaked"] as? [String] == ["SyncScreen"])
    #expect(object["resolvedAfterSeconds"] as? Double == 10)
    #expect(object["match"] as? Bool == true)
    #expect(object["labelAfterGrace"] as? String == "Leaked: SyncScreen#1")
  }

  @Test func aCleanRunEncodesNullForResolvedAfter() async throws {
    let result = await ScenarioRunner.run(Catalogue.closureCapture, mode: .weak)
    let json = String(decoding: try JSONEncoder().encode(result), as: UTF8.self)
    #expect(json.contains(#""resolvedAfterSeconds":null"#))
    #expect(json.contains(#""leaked":[]"#))
    #expect(json.contains(#""detected":"clean""#))
  }

  @Test func verdictsCompareTypeNamesInAnyOrder() {
    #expect(Verdict.leaking("B", "A") == .leaks(["A", "B"]))
    #expect(Verdict.leaks(["B", "A"]) == .leaks(["A", "B"]))
    #expect(Verdict.leaking("A", resolvedAfter: .seconds(10)) != .leaking("A", resolvedAfter: .seconds(9)))
    #expect(Verdict.leaking("A") != .leaking("A", resolvedAfter: .seconds(10)))
    #expect(Verdict.leaking("A", "B").description == "leaks A, B")
    #expect(
      Verdict.leaking("A", resolvedAfter: .seconds(10)).description == "temporary A (resolved after 10.0 s)")
  }
}
