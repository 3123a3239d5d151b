import Foundation

/// The code lines a scenario shows, cut from its own source file.
///
/// A scenario marks a region of its source with `// leaklab:code begin` and
/// `// leaklab:code end` and embeds that region, verbatim, as a string; a test
/// compares the string with the file, so what is shown cannot drift from what
/// runs. Inside the region, a trailing comment marks a line:
///
/// - `// leaklab:strong`: runs, and is shown, only in the leaky form;
/// - `// leaklab:weak`: runs, and is shown, only in the fixed form;
/// - `// leaklab:toggle`: the `if`/`switch` on the mode that picks between
///   them. Never shown; the lines it selects are shown at its indentation, so
///   each form reads as the plain code a developer would write.
///
/// ```swift
/// // leaklab:code begin
/// switch mode {  // leaklab:toggle
/// case .strong:  // leaklab:toggle
///   service.run(completion: handleResponse)  // leaklab:strong
/// case .weak:  // leaklab:toggle
///   service.run { [weak self] in self?.handleResponse($0) }  // leaklab:weak
/// }  // leaklab:toggle
/// // leaklab:code end
/// ```
public struct CodeExcerpt: Sendable, Equatable {
  /// Which form a line belongs to.
  public enum Role: String, Sendable, Equatable {
    /// Shown and run in both forms.
    case common
    /// Only in the leaky form: the line the user should look at.
    case strong
    /// Only in the fixed form: the line the user should look at.
    case weak
  }

  /// One line shown to the user.
  public struct Line: Sendable, Equatable {
    /// The code, without the marker comment, indented as shown.
    public var text: String
    /// Whether it is common or belongs to one form.
    public var role: Role
  }

  /// The marker that opens a region.
  public static let beginMarker = "// leaklab:code begin"
  /// The marker that closes a region.
  public static let endMarker = "// leaklab:code end"

  /// The region as embedded, markers included, dedented.
  public let source: String
  /// Every line of the region without the toggle lines, in order, both forms.
  public let lines: [Line]

  /// Parses an embedded region.
  public init(_ source: String) {
    self.source = source
    self.lines = Self.parse(source)
  }

  /// The lines shown for `mode`: the common lines and that mode's lines.
  ///
  /// Blank lines left next to each other by the other mode's lines are
  /// collapsed to one, and none is left at either end.
  public func lines(for mode: ScenarioMode) -> [Line] {
    var result: [Line] = []
    for line in lines where line.role == .common || line.role.rawValue == mode.rawValue {
      let isBlank = line.text.isEmpty
      if isBlank && (result.isEmpty || result.last?.text.isEmpty == true) { continue }
      result.append(line)
    }
    while result.last?.text.isEmpty == true { result.removeLast() }
    return result
  }

  /// The code shown for `mode`, as text.
  public func text(for mode: ScenarioMode) -> String {
    lines(for: mode).map(\.text).joined(separator: "\n")
  }

  /// The marked region of a Swift source file, dedented, markers included:
  /// what a scenario embeds. `nil` if the file has no complete region.
  public static func region(inFile contents: String) -> String? {
    let all = contents.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
    guard let begin = all.firstIndex(where: { $0.trimmed == beginMarker }),
      let end = all[begin...].firstIndex(where: { $0.trimmed == endMarker })
    else { return nil }
    return dedent(Array(all[(begin + 1)..<end])).joined(separator: "\n")
  }

  // MARK: Parsing

  private static func parse(_ source: String) -> [Line] {
    var result: [Line] = []
    // While a toggle is open, selected lines move to the toggle's indentation.
    var toggleIndent: Int?
    var shift: Int?
    for raw in source.split(separator: "\n", omittingEmptySubsequences: false).map(String.init) {
      let (code, marker) = split(raw)
      if marker == "toggle" {
        toggleIndent = code.trimmed == "}" ? nil : code.indentation
        shift = nil
        continue
      }
      var text = code
      if let toggleIndent, !code.trimmed.isEmpty {
        let by = shift ?? (code.indentation - toggleIndent)
        shift = by
        text = String(repeating: " ", count: max(0, code.indentation - by)) + code.trimmed
      }
      let role: Role =
        switch marker {
        case "strong": .strong
        case "weak": .weak
        default: .common
        }
      result.append(Line(text: text, role: role))
    }
    // Kept without spare capacity: the catalogue lives for the whole process,
    // and an array's unused capacity is stale memory, whose old pointers a
    // conservative scan (`leaklab explain`'s root search) can follow to
    // whatever now lives at those addresses.
    var exact: [Line] = []
    exact.reserveCapacity(result.count)
    exact.append(contentsOf: result)
    return exact
  }

  /// Splits `code  // leaklab:marker` into the code and the marker name.
  private static func split(_ line: String) -> (code: String, marker: String?) {
    guard let range = line.range(of: "// leaklab:", options: .backwards) else { return (line, nil) }
    let marker = String(line[range.upperBound...]).trimmed
    var code = String(line[..<range.lowerBound])
    while code.last == " " { code.removeLast() }
    return (code, marker)
  }

  private static func dedent(_ lines: [String]) -> [String] {
    let indent = lines.filter { !$0.trimmed.isEmpty }.map(\.indentation).min() ?? 0
    return lines.map { $0.trimmed.isEmpty ? "" : String($0.dropFirst(indent)) }
  }
}

extension String {
  fileprivate var trimmed: String {
    var slice = Substring(self)
    while slice.first == " " || slice.first == "\t" { slice.removeFirst() }
    while slice.last == " " || slice.last == "\t" { slice.removeLast() }
    return String(slice)
  }

  fileprivate var indentation: Int {
    prefix { $0 == " " }.count
  }
}
