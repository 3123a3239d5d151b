/// Text output for step-script runs: each step beside the label read after it.
///
/// ```text
/// Scenarios/Scripts/closure-capture.strong.leaklab
///      2  select closure-capture    No issues detected
///      6  close                     No issues detected
///      7  wait 1s                   Leaked: LoadFeedUseCase#1
///      8  expect contains "Leaked"  ✔
///   passed
/// 1 passed, 0 failed
/// ```
public enum StepReport {
  /// The lines printed for one script's result.
  ///
  /// Text that came from the script or its file name is escaped for display
  /// (``DisplayText``): a control character in a script never reaches the terminal.
  public static func lines(for result: ScriptResult) -> [String] {
    let texts = result.records.map { DisplayText.escaped($0.step.text) }
    let width = min(40, texts.map(\.count).max() ?? 0)
    let file = DisplayText.escaped(result.script.file, limit: 200)
    var lines = [file]
    for (record, shownText) in zip(result.records, texts) {
      let number =
        String(repeating: " ", count: max(0, 5 - String(record.step.line).count)) + "\(record.step.line)"
      let text = shownText.padded(to: width)
      let isFailure = result.failure?.step == record.step
      let shown: String =
        if case .expect = record.step.command { isFailure ? "✘ \(record.label)" : "✔" } else { record.label }
      lines.append("\(number)  \(text)  \(shown)")
    }
    if let failure = result.failure {
      lines.append("  FAILED: \(file):\(failure.step.line): \(DisplayText.escaped(failure.step.text))")
      if let expected = failure.expected, let actual = failure.actual {
        lines.append("    expected: \(DisplayText.escaped(expected, limit: 200))")
        lines.append("    actual:   \(DisplayText.quoted(actual, limit: 200))")
      } else {
        lines.append("    \(DisplayText.escaped(failure.message, limit: 200))")
      }
    } else {
      lines.append("  passed")
    }
    return lines
  }

  /// The closing line: `N passed, N failed`.
  public static func summary(_ results: [ScriptResult]) -> String {
    let passed = results.filter(\.passed).count
    return "\(passed) passed, \(results.count - passed) failed"
  }
}

extension String {
  fileprivate func padded(to width: Int) -> String {
    count >= width ? self : self + String(repeating: " ", count: width - count)
  }
}
