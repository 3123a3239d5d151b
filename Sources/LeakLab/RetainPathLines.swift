/// A retain path broken into lines at its arrows, for panes narrower than the path.
///
/// Each reference after the first starts a line with `stepPrefix`; a
/// reference wider than a line wraps at spaces (a word wider than a line is
/// broken), indented under its text. No line is wider than `width`, so a
/// pane shows the whole path without scrolling sideways.
///
/// ```swift
/// RetainPathLines.wrap(
///   "retain cycle: A#1 → b: B#1 → captures A#1 (strong)", width: 24,
///   firstPrefix: "", stepPrefix: "  → ")
/// // ["retain cycle: A#1", "  → b: B#1", "  → captures A#1", "    (strong)"]
/// ```
enum RetainPathLines {
  static func wrap(_ path: String, width: Int, firstPrefix: String, stepPrefix: String) -> [String] {
    let steps = path.split(separator: " → ", omittingEmptySubsequences: false).map(String.init)
    var lines: [String] = []
    for (number, step) in steps.enumerated() {
      let prefix = number == 0 ? firstPrefix : stepPrefix
      let hanging = String(repeating: " ", count: prefix.count + 2)
      let first = max(1, width - prefix.count)
      let rest = max(1, width - hanging.count)
      for (part, text) in TextWrapping.words(step, width: first, restWidth: rest).enumerated() {
        lines.append((part == 0 ? prefix : hanging) + text)
      }
    }
    return lines
  }
}
