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
  public static func lines(for result: ScriptResult) -> [String] {
    let width = min(40, result.records.map(\.step.text.count).max() ?? 0)
    var lines = [result.script.file]
    for record in result.records {
      let number =
        String(repeating: " ", count: max(0, 5 - String(record.step.line).count)) + "\(record.step.line)"
      let text = record.step.text.padded(to: width)
      let isFailure = result.failure?.step == record.step
      let shown: String =
        if case .expect = record.step.command { isFailure ? "✘ \(record.label)" : "✔" } else { record.label }
      lines.append("\(number)  \(text)  \(shown)")
    }
    if let failure = result.failure {
      lines.append("  FAILED: \(result.script.file):\(failure.step.line): \(failure.step.text)")
      if let expected = failure.expected, let actual = failure.actual {
        lines.append("    expected: \(expected)")
        lines.append("    actual:   \"\(actual)\"")
      } else {
        lines.append("    \(failure.message)")
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
