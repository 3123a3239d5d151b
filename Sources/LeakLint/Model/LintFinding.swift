/// One place where `leaklab lint` sees a leak pattern.
///
/// A finding names the rule, where the code is (1-based line and column, the
/// column counted in UTF-8 bytes as the compiler does), what the cycle is in
/// one sentence, and the fix.
///
/// ```swift
/// let findings = Linter().lint(source: code, path: "Feed.swift")
/// for finding in findings {
///   print(finding.compilerFormat)  // Feed.swift:12:27: warning: … [method-reference]
/// }
/// ```
public struct LintFinding: Sendable, Hashable, Codable {
  /// The file, as it was given to the linter.
  public var file: String
  /// The 1-based line.
  public var line: Int
  /// The 1-based column, in UTF-8 bytes.
  public var column: Int
  /// The rule that matched.
  public var rule: LintRule
  /// How serious it is: a leak, or a temporary one.
  public var severity: LintSeverity
  /// The cycle (or what keeps the object) in one sentence.
  public var message: String
  /// The fix, in one line.
  public var fix: String

  /// Creates a finding.
  public init(
    file: String, line: Int, column: Int, rule: LintRule, severity: LintSeverity? = nil, message: String,
    fix: String? = nil
  ) {
    self.file = file
    self.line = line
    self.column = column
    self.rule = rule
    self.severity = severity ?? rule.severity
    self.message = message
    self.fix = fix ?? rule.fix
  }

  /// `file:line:column: warning: message [rule]`, the compiler's format.
  public var compilerFormat: String {
    "\(file):\(line):\(column): \(severity.rawValue): \(message) [\(rule.rawValue)]"
  }

  /// The note line that follows ``compilerFormat``: `file:line:column: note: fix: …`.
  public var fixNote: String {
    "\(file):\(line):\(column): note: fix: \(fix)"
  }
}

/// How serious a finding is.
public enum LintSeverity: String, Sendable, Hashable, Codable, CaseIterable {
  /// Something is kept alive for as long as the program runs: a cycle, or a root that never lets go.
  case warning
  /// Something is kept alive longer than it should be, then let go (a delayed block).
  case note
}

extension LintFinding: Comparable {
  /// Orders by file, line, column, rule, then message and fix: a total order, so sorted output never
  /// depends on the order findings were made in.
  public static func < (lhs: LintFinding, rhs: LintFinding) -> Bool {
    (lhs.file, lhs.line, lhs.column, lhs.rule.rawValue, lhs.message, lhs.fix)
      < (rhs.file, rhs.line, rhs.column, rhs.rule.rawValue, rhs.message, rhs.fix)
  }
}
