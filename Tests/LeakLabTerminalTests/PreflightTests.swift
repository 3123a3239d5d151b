import Foundation
import LeakLabTestSupport
import TerminalAutomation
import Testing

@testable import LeakLabTerminal

@Suite struct PreflightTests {
  @Test func aMissingOrEmptyTermIsRejectedFirst() {
    #expect(throws: TerminalError.terminalTypeNotSet) {
      try Terminal.preflight(
        environment: [:], standardInputIsTerminal: false, standardOutputIsTerminal: false)
    }
    #expect(throws: TerminalError.terminalTypeNotSet) {
      try Terminal.preflight(
        environment: ["TERM": ""], standardInputIsTerminal: true, standardOutputIsTerminal: true)
    }
  }

  @Test func theDumbTerminalIsRejected() {
    #expect(throws: TerminalError.dumbTerminal) {
      try Terminal.preflight(
        environment: ["TERM": "dumb"], standardInputIsTerminal: true, standardOutputIsTerminal: true)
    }
  }

  @Test func standardInputAndOutputMustBeTerminals() {
    let environment = ["TERM": "xterm-256color"]
    #expect(throws: TerminalError.standardInputNotATerminal) {
      try Terminal.preflight(
        environment: environment, standardInputIsTerminal: false, standardOutputIsTerminal: true)
    }
    #expect(throws: TerminalError.standardOutputNotATerminal) {
      try Terminal.preflight(
        environment: environment, standardInputIsTerminal: true, standardOutputIsTerminal: false)
    }
    #expect(throws: Never.self) {
      try Terminal.preflight(
        environment: environment, standardInputIsTerminal: true, standardOutputIsTerminal: true)
    }
  }

  @Test func everyErrorIsOneLine() {
    let errors: [TerminalError] = [
      .terminalTypeNotSet, .dumbTerminal, .standardInputNotATerminal, .standardOutputNotATerminal,
      .unknownTerminalType("vt9000"), .alreadyActive,
    ]
    for error in errors {
      #expect(!error.description.contains("\n"))
      #expect(!error.description.isEmpty)
    }
  }

  // MARK: The executable's exit

  /// Runs TerminalSmoke without a terminal (stdin from /dev/null, output to pipes).
  func runSmoke(environment changes: [String: String?]) throws -> ChildProcess.Result {
    var environment = ProcessInfo.processInfo.environment
    for (name, value) in changes { environment[name] = value }
    return try ChildProcess.run(
      [builtExecutable(named: "TerminalSmoke")], environment: environment, timeout: .seconds(20))
  }

  @Test(
    arguments: [
      ([("TERM", nil)], "TERM is not set"),
      ([("TERM", "dumb")], "TERM=dumb"),
      ([("TERM", "xterm-256color")], "standard input is not a terminal"),
    ] as [([(String, String?)], String)])
  func withoutAUsableTerminalTheExecutableExitsWithStatusTwoAndOneLine(
    environment: [(String, String?)], message: String
  ) throws {
    let result = try runSmoke(environment: Dictionary(environment, uniquingKeysWith: { $1 }))
    #expect(result.status == 2)
    #expect(result.standardOutput.isEmpty)
    #expect(result.standardError.hasPrefix("TerminalSmoke: "))
    #expect(result.standardError.contains(message))
    #expect(result.standardError.filter { $0 == "\n" }.count == 1)
  }
}
