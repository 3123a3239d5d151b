import StepScripts
import Testing

@Suite struct StepScriptParserTests {
  @Test func everyStepKindParses() throws {
    let script = try StepScriptParser.parse(
      """
      # a comment line
      select closure-capture
      mode weak
      open   # trailing comment
      action 2
      alert 1
      close
      key w
      key Esc
      wait 1.5s
      wait 250ms
      expect clean
      expect "Leaked: A#1, B#2"
      expect contains "A#1"
      always clean
      """, file: "demo.leaklab")
    #expect(
      script.steps.map(\.command) == [
        .select("closure-capture"), .mode(.weak), .open, .action(2), .alert(1), .close,
        .key(.character("w")), .key(.escape), .wait(.milliseconds(1500)), .wait(.milliseconds(250)),
        .expect(.equals("No issues detected")), .expect(.equals("Leaked: A#1, B#2")),
        .expect(.contains("A#1")), .alwaysClean,
      ])
    #expect(script.steps.map(\.line) == Array(2...15))
    #expect(script.steps[2].text == "open")
  }

  @Test func quotesMayHoldHashesAndEscapedQuotes() throws {
    let script = try StepScriptParser.parse(#"expect "a # \"b\"""#, file: "f")
    #expect(script.steps.map(\.command) == [.expect(.equals(#"a # "b""#))])
  }

  @Test(arguments: [
    (
      "jump",
      "f:1: unknown step \"jump\" (steps: select, mode, open, action, alert, close, key, wait, expect, always clean)"
    ),
    ("mode medium", "f:1: mode must be strong or weak"),
    ("action 0", "f:1: action needs a number from 1 to 9"),
    ("action x", "f:1: action needs a number from 1 to 9"),
    ("wait 10", "f:1: wait needs a duration such as 1s, 1.5s or 250ms"),
    ("wait -1s", "f:1: wait needs a duration such as 1s, 1.5s or 250ms"),
    ("expect Leaked", "f:1: expect needs clean, a quoted label, or contains and quoted text"),
    ("expect \"open", "f:1: unterminated quoted text"),
    ("open now", "f:1: open takes no arguments"),
    ("select", "f:1: select needs one scenario id"),
    ("always leaky", "f:1: the only directive is \"always clean\""),
  ])
  func malformedInputNamesFileAndLine(line: String, message: String) {
    #expect(throws: StepScriptError.self) { try StepScriptParser.parse(line, file: "f") }
    do {
      _ = try StepScriptParser.parse(line, file: "f")
    } catch {
      #expect(error.description == message)
    }
  }

  @Test func theErrorPointsAtTheRightLine() {
    do {
      _ = try StepScriptParser.parse("open\n\n# fine\nclose\nwobble\n", file: "scripts/x.leaklab")
      Issue.record("expected an error")
    } catch {
      #expect(error.description.hasPrefix("scripts/x.leaklab:5: unknown step \"wobble\""))
    }
  }

  @Test func unknownKeysAreRejectedWithTheKnownNames() {
    #expect(throws: StepScriptError.self) { try StepScriptParser.parse("key F13", file: "f") }
  }

  @Test func keyNamesAreTheTerminalsKeysSpaceIsTheSpaceCharacter() throws {
    let script = try StepScriptParser.parse("key Space\nkey DOWN\nkey return\nkey Backspace\n", file: "f")
    #expect(
      script.steps.map(\.command) == [
        .key(.character(" ")), .key(.down), .key(.enter), .key(.backspace),
      ])
  }
}
