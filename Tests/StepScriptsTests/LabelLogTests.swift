import StepScripts
import Testing

struct LabelLogTests {
  @Test func theLabelAfterKeysIsTheFirstFrameThatCountsThemAll() {
    let log = ["0\tNo issues detected", "1\tNo issues detected", "3\tLeaked: A#1", "4\tLeaked: A#1, B#1"]
      .map { $0 + "\n" }.joined()
    #expect(LabelLog.label(afterKeys: 0, in: log) == "No issues detected")
    #expect(LabelLog.label(afterKeys: 2, in: log) == "Leaked: A#1")
    #expect(LabelLog.label(afterKeys: 4, in: log) == "Leaked: A#1, B#1")
    #expect(LabelLog.label(afterKeys: 5, in: log) == nil)
  }

  @Test func aLineIsTheKeyCountAndTheLabel() {
    #expect(LabelLog.line(keys: 3, label: "Leaked: A#1, B#1") == "3\tLeaked: A#1, B#1\n")
    #expect(LabelLog.label(afterKeys: 3, in: LabelLog.line(keys: 3, label: "x")) == "x")
  }
}
