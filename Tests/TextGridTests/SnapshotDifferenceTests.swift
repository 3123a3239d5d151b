import LeakLabTestSupport
import Testing

/// The snapshot helper's mismatch message: which lines differ, expected then actual.
@Suite struct SnapshotDifferenceTests {
  @Test func equalTextsHaveNoDifference() {
    #expect(lineDifference(expected: "a\nb\n", actual: "a\nb\n") == nil)
  }

  @Test func aChangedLineIsNamedWithItsNumberExpectedThenActual() {
    #expect(lineDifference(expected: "a\nb\nc\n", actual: "a\nB\nc\n") == "line 2:\n- b\n+ B")
  }

  @Test func aMissingLineIsCountedAndShownAsNoLine() {
    #expect(
      lineDifference(expected: "a\nb", actual: "a")
        == "2 lines expected, 1 actual\nline 2:\n- b\n+ (no line)")
  }

  @Test func onlyTheFirstDifferencesAreListed() {
    let difference = lineDifference(expected: "1\n2\n3\n4", actual: "a\nb\nc\nd", limit: 2)
    #expect(difference == "line 1:\n- 1\n+ a\nline 2:\n- 2\n+ b\n…")
  }
}
