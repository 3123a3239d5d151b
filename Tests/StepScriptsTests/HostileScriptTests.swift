import Testing

@testable import StepScripts

/// Scripts from other systems and hostile scripts: what the parser accepts,
/// and that what it shows of bad input is escaped.
@Suite struct HostileScriptTests {
  @Test(arguments: ["\r\n", "\r", "\n"])
  func everyLineEndingEndsALine(ending: String) throws {
    let script = try StepScriptParser.parse(
      ["select closure-capture", "open", "wait 1s", ""].joined(separator: ending), file: "f")
    #expect(script.steps.map(\.command) == [.select("closure-capture"), .open, .wait(.seconds(1))])
    #expect(script.steps.map(\.line) == [1, 2, 3])
  }

  @Test(arguments: ["", "\n\n\n", "# a comment\n   \n# another\n"])
  func aScriptWithoutStepsIsMalformed(text: String) {
    #expect(throws: StepScriptError(file: "empty.leaklab", line: 0, message: "no steps")) {
      try StepScriptParser.parse(text, file: "empty.leaklab")
    }
    #expect(StepScriptError(file: "e", line: 0, message: "no steps").description == "e: no steps")
  }

  @Test(arguments: [
    "0x10s", "1e3ms", "1E1s", "inf s", "infs", "nans", "+1s", ".5s", "1.s", "1..5s", "1.5.5s", "١s",
  ])
  func waitTakesOnlyPlainDecimalDurations(text: String) {
    #expect(throws: StepScriptError.self) { try StepScriptParser.parse("wait \(text)", file: "f") }
  }

  @Test(arguments: [("1s", 1000), ("1.5s", 1500), ("250ms", 250), ("0ms", 0), ("3600s", 3_600_000)])
  func plainDurationsStillParse(text: String, milliseconds: Int64) throws {
    let script = try StepScriptParser.parse("wait \(text)", file: "f")
    #expect(script.steps.map(\.command) == [.wait(.milliseconds(milliseconds))])
  }

  @Test func controlCharactersInMessagesAreEscaped() {
    for line in ["key \u{1B}[2J", "\u{1B}]0;x\u{07}", "select a\u{7F}b c"] {
      do {
        _ = try StepScriptParser.parse(line, file: "f\u{1B}")
        Issue.record("expected an error for \(DisplayText.quoted(line))")
      } catch {
        #expect(!error.description.unicodeScalars.contains { $0.value < 0x20 || $0.value == 0x7F })
        #expect(error.description.hasPrefix("f\\u{1B}:1: "))
      }
    }
  }

  @Test func displayTextEscapesAndCuts() {
    #expect(DisplayText.escaped("a\u{1B}[31mb\nc\td\r") == "a\\u{1B}[31mb\\nc\\td\\r")
    #expect(DisplayText.escaped("\u{202E}evil\u{2066}") == "\\u{202E}evil\\u{2066}")
    #expect(DisplayText.escaped("café 漢字 🐛") == "café 漢字 🐛")
    #expect(DisplayText.quoted("say \"hi\" \\ now") == "\"say \\\"hi\\\" \\\\ now\"")
    #expect(DisplayText.escaped(String(repeating: "x", count: 100), limit: 5) == "xxxxx…(100 characters)")
    #expect(DisplayText.escaped("12345", limit: 5) == "12345")
  }

  @Test func theReportEscapesWhatCameFromTheScript() {
    let step = Step(line: 1, text: "expect \"\u{1B}[2J\"", command: .expect(.equals("\u{1B}[2J")))
    let result = ScriptResult(
      script: StepScript(file: "x\u{07}.leaklab", steps: [step]),
      records: [StepRecord(step: step, label: "No issues detected")],
      failure: StepFailure(step: step, expected: "\"\u{1B}[2J\"", actual: "No issues detected", message: "m"))
    let text = StepReport.lines(for: result).joined(separator: "\n")
    #expect(!text.unicodeScalars.contains { $0.value == 0x1B || $0.value == 0x07 })
    #expect(text.contains("x\\u{7}.leaklab"))
  }
}
