import Foundation
import LeakLint
import Testing

/// `// leaklab:ignore RULE` and `.leaklab-lint.json`.
@Suite struct SuppressionAndConfigurationTests {
  static let leaky = """
    final class Player {
      var onFinish: (() -> Void)?
      var onPause: (() -> Void)?
      func start() {
        onFinish = { self.stop() }  // leaklab:ignore stored-closure
        // leaklab:ignore all
        onPause = { self.stop() }
      }
      func stop() {}
    }
    """

  @Test func anIgnoreCommentOnTheLineOrTheLineAboveSuppressesItsRule() {
    #expect(Linter().lint(source: Self.leaky).isEmpty)
  }

  @Test func anIgnoreCommentForAnotherRuleSuppressesNothing() {
    let source = Self.leaky.replacingOccurrences(of: "ignore stored-closure", with: "ignore task-loop")
    #expect(Linter().lint(source: source).map(\.line) == [5])
  }

  @Test func aConfigurationDisablesRulesAndExcludesPaths() throws {
    let configuration = try LintConfiguration(
      json: Data(#"{"disabled": ["delayed-dispatch"], "exclude": ["Generated"]}"#.utf8))
    #expect(!configuration.isEnabled(.delayedDispatch))
    #expect(configuration.isEnabled(.storedClosure))
    #expect(configuration.isExcluded("Generated/Model.swift"))
    #expect(!configuration.isExcluded("Sources/Generated.swift"))
    let source = """
      import Dispatch
      final class A {
        func later() { DispatchQueue.main.asyncAfter(deadline: .now() + 1) { self.run() } }
        func run() {}
      }
      """
    #expect(Linter().lint(source: source).count == 1)
    #expect(Linter(configuration: configuration).lint(source: source).isEmpty)
  }

  @Test func onlyRunsTheNamedRules() throws {
    let configuration = try LintConfiguration(json: Data(#"{"only": ["task-loop"]}"#.utf8))
    #expect(
      Linter(configuration: configuration).lint(
        source: Self.leaky.replacingOccurrences(of: "leaklab:ignore", with: "x")
      ).isEmpty)
  }

  @Test(arguments: [
    (#"{"disabled": ["stored-closures"]}"#, #"unknown rule "stored-closures" in "disabled""#),
    (#"{"exclude": "Generated"}"#, #""exclude" must be a list of strings"#),
    (#"{"rules": []}"#, #"unknown key "rules""#),
    ("[1, 2]", "not a JSON object"),
  ])
  func aBadConfigurationIsAOneLineError(json: String, message: String) {
    #expect {
      try LintConfiguration(json: Data(json.utf8), path: "c.json")
    } throws: { error in
      let text = (error as? LintError)?.description ?? ""
      return text.contains(message) && !text.contains("\n") && text.hasPrefix("c.json: ")
    }
  }
}
