/// `// leaklab:ignore RULE` comments in one file.
///
/// A comment suppresses the named rules (comma or space separated; `all` for
/// every rule) on its own line, or, when it stands alone on a line, on the
/// next line.
struct Suppressions {
  static let marker = "leaklab:ignore"
  private var rulesByLine: [Int: Set<String>] = [:]

  init(text: String) {
    guard Self.mentionsMarker(text) else { return }
    for (offset, line) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
      guard let comment = line.range(of: "//"), let marker = line.range(of: Self.marker),
        comment.lowerBound < marker.lowerBound
      else { continue }
      let names = line[marker.upperBound...].split(whereSeparator: { $0 == " " || $0 == "," || $0 == "\t" })
        .map(String.init)
      let rules = Set(names.prefix { name in name == "all" || LintRule(rawValue: name) != nil })
      let lineNumber = offset + 1
      rulesByLine[lineNumber, default: []].formUnion(rules)
      if line[..<comment.lowerBound].allSatisfy(\.isWhitespace) {
        rulesByLine[lineNumber + 1, default: []].formUnion(rules)
      }
    }
  }

  /// A plain byte scan for the marker: most files have none, and this runs on every file.
  private static func mentionsMarker(_ text: String) -> Bool {
    let marker = Array(Self.marker.utf8)
    var text = text
    return text.withUTF8 { bytes in
      guard bytes.count >= marker.count else { return false }
      var index = 0
      while index <= bytes.count - marker.count {
        if bytes[index] == marker[0] {
          var offset = 1
          while offset < marker.count && bytes[index + offset] == marker[offset] { offset += 1 }
          if offset == marker.count { return true }
        }
        index += 1
      }
      return false
    }
  }

  func suppresses(_ rule: LintRule, line: Int) -> Bool {
    guard let rules = rulesByLine[line] else { return false }
    return rules.contains("all") || rules.contains(rule.rawValue)
  }
}
