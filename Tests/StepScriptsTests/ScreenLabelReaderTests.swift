import StepScripts
import Testing

@Suite struct ScreenLabelReaderTests {
  @Test func aOneLineLabelIsReadFromTheDetectorBox() {
    let screen = [
      "┌─ Catalogue ─┐┌─ Detector ──────────┐",
      "│ closure     ││No issues detected   │",
      "│ delegate    ││─────────────────────│",
      "└─────────────┘└─────────────────────┘",
    ]
    #expect(ScreenLabelReader.label(in: screen) == "No issues detected")
  }

  @Test func aWrappedLabelIsJoinedWithOneSpace() {
    let screen = [
      "xx┌─ Detector ───────────┐",
      "  │Leaked: AlertScreen#1,│",
      "  │AlertController#1     │",
      "  │──────────────────────│",
      "  │AlertScreen#1  1.0 s  │",
    ]
    #expect(ScreenLabelReader.label(in: screen) == "Leaked: AlertScreen#1, AlertController#1")
  }

  @Test func wideCharactersLeftOfTheBoxDoNotShiftIt() {
    let screen = [
      "漢字 ┌─ Detector ───┐",
      "漢字 │Leaked: A#1   │",
      "漢字 │──────────────│",
    ]
    #expect(ScreenLabelReader.label(in: screen) == "Leaked: A#1")
  }

  @Test func noOverlayMeansNoLabel() {
    #expect(ScreenLabelReader.label(in: ["┌─ Phone ─┐", "│         │"]) == nil)
  }
}
