import LeakLint
import Testing

/// Lints `code` and checks that the findings are exactly on the lines marked
/// `// flagged` (none marked: no finding at all), each by `rule`.
func expectFindings(
  _ code: String, rule: LintRule? = nil, sourceLocation: SourceLocation = #_sourceLocation
) {
  let findings = Linter().lint(source: code, path: "Example.swift")
  let marked = code.split(separator: "\n", omittingEmptySubsequences: false).enumerated()
    .filter { $0.element.contains("// flagged") }.map { $0.offset + 1 }
  #expect(
    findings.map(\.line) == marked, "\(findings.map(\.compilerFormat))", sourceLocation: sourceLocation)
  if let rule {
    for finding in findings {
      #expect(finding.rule == rule, "\(finding.compilerFormat)", sourceLocation: sourceLocation)
    }
  }
}
