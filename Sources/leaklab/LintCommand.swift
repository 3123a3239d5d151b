#if !LEAKLAB_WITHOUT_LINT
  import ArgumentParser
  import Foundation
  import LeakLint
  import StepScripts

  /// `leaklab lint PATH…`: the catalogue's leak patterns found statically in any Swift code.
  struct LintCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
      commandName: "lint",
      abstract:
        "Find the catalogue's leak patterns in Swift files and folders (exit 1 when something is found).",
      discussion: """
        Files and folders are read together, as one program, so lint a whole module or app at once. \
        A line can opt out with `// leaklab:ignore RULE`. A .leaklab-lint.json in the current folder \
        (or --config FILE) can disable rules and exclude paths. Rules: \
        \(LintRule.allCases.map(\.rawValue).joined(separator: ", ")).
        """
    )

    @Argument(help: "Swift files or folders (searched recursively).")
    var paths: [String]

    @Option(help: "Output: text (the compiler's format), json or sarif.")
    var format: LintOutputFormat = .text

    @Option(help: "A configuration file (default: ./.leaklab-lint.json if present).")
    var config: String?

    func run() throws {
      do {
        let linter = Linter(configuration: try loadConfiguration())
        let report = try linter.lint(paths: paths)
        CommandOutput.write(format.render(report.findings))
        let count = report.findings.count
        CommandOutput.errorLine(
          "leaklab lint: \(count) finding\(count == 1 ? "" : "s") in \(report.fileCount) file\(report.fileCount == 1 ? "" : "s") (\(report.lineCount) lines)"
        )
        if count > 0 { throw ExitCode(1) }
      } catch let error as LintError {
        CommandOutput.error(DisplayText.escaped(error.description, limit: 200))
        throw ExitCode(2)
      }
    }

    private func loadConfiguration() throws -> LintConfiguration {
      if let config { return try LintConfiguration(contentsOf: URL(fileURLWithPath: config)) }
      let local = LintConfiguration.fileName
      guard FileManager.default.fileExists(atPath: local) else { return LintConfiguration() }
      return try LintConfiguration(contentsOf: URL(fileURLWithPath: local))
    }
  }

  extension LintOutputFormat: ExpressibleByArgument {}
#endif
