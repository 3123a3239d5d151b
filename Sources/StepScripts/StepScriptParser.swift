import TextGrid

/// Reads step scripts; malformed input is an error naming `file:line`, never a crash.
public enum StepScriptParser {
  /// Parses `text` read from `file`.
  ///
  /// ```swift
  /// let script = try StepScriptParser.parse("open\nwait 1s\nexpect clean\n", file: "demo.leaklab")
  /// ```
  /// Lines end with `\n`, `\r\n` or `\r`. A script with no steps (empty, or
  /// only comments) is malformed: `file: no steps`.
  public static func parse(_ text: String, file: String) throws(StepScriptError) -> StepScript {
    var steps: [Step] = []
    let lines = text.split(omittingEmptySubsequences: false) { $0 == "\n" || $0 == "\r\n" || $0 == "\r" }
    for (index, rawLine) in lines.enumerated() {
      let line = index + 1
      let content = try stripComment(String(rawLine), file: file, line: line)
      guard !content.isEmpty else { continue }
      do {
        steps.append(Step(line: line, text: content, command: try command(content)))
      } catch let message {
        throw StepScriptError(file: file, line: line, message: message.text)
      }
    }
    guard !steps.isEmpty else { throw StepScriptError(file: file, line: 0, message: "no steps") }
    return StepScript(file: file, steps: steps)
  }

  // MARK: Lines

  struct Message: Error {
    let text: String
    init(_ text: String) { self.text = text }
  }

  /// The line without its `#` comment (outside quotes) and surrounding spaces.
  private static func stripComment(_ line: String, file: String, line number: Int) throws(StepScriptError)
    -> String
  {
    var result = ""
    var inQuotes = false
    var escaped = false
    for character in line {
      if escaped {
        escaped = false
      } else if character == "\\" && inQuotes {
        escaped = true
      } else if character == "\"" {
        inQuotes.toggle()
      } else if character == "#" && !inQuotes {
        break
      }
      result.append(character)
    }
    if inQuotes { throw StepScriptError(file: file, line: number, message: "unterminated quoted text") }
    return result.trimmingSpaces
  }

  private static func command(_ content: String) throws(Message) -> StepCommand {
    let (word, rest) = content.splitFirstWord
    switch word {
    case "select":
      guard !rest.isEmpty, !rest.contains(where: \.isWhitespace) else {
        throw Message("select needs one scenario id")
      }
      return .select(rest)
    case "mode":
      guard let mode = StepMode(rawValue: rest) else { throw Message("mode must be strong or weak") }
      return .mode(mode)
    case "open": return try noArguments(.open, word, rest)
    case "close": return try noArguments(.close, word, rest)
    case "action": return .action(try number(rest, for: word))
    case "alert": return .alert(try number(rest, for: word))
    case "key": return .key(try key(rest))
    case "wait": return .wait(try duration(rest))
    case "expect": return .expect(try expectation(rest))
    case "always":
      guard rest == "clean" else { throw Message("the only directive is \"always clean\"") }
      return .alwaysClean
    default:
      throw Message(
        "unknown step \(DisplayText.quoted(word)) (steps: select, mode, open, action, alert, close, key, wait, expect, always clean)"
      )
    }
  }

  private static func noArguments(_ command: StepCommand, _ word: String, _ rest: String) throws(Message)
    -> StepCommand
  {
    guard rest.isEmpty else { throw Message("\(word) takes no arguments") }
    return command
  }

  private static func number(_ text: String, for word: String) throws(Message) -> Int {
    guard let value = Int(text), (1...9).contains(value) else {
      throw Message("\(word) needs a number from 1 to 9")
    }
    return value
  }

  /// The key names `key` accepts (case-insensitive), besides single characters.
  ///
  /// ```swift
  /// StepScriptParser.keyNames["esc"]    // .escape
  /// StepScriptParser.keyNames["space"]  // .character(" ")
  /// ```
  public static let keyNames: [String: Key] = [
    "up": .up, "down": .down, "left": .left, "right": .right, "enter": .enter, "return": .enter,
    "esc": .escape, "escape": .escape, "backspace": .backspace, "tab": .tab, "space": .character(" "),
  ]

  private static func key(_ text: String) throws(Message) -> Key {
    if let named = keyNames[text.lowercased()] { return named }
    guard text.count == 1, let character = text.first, !character.isWhitespace else {
      throw Message(
        "unknown key \(DisplayText.quoted(text)) (a single character, or one of: \(keyNames.keys.sorted().joined(separator: ", ")))"
      )
    }
    return .character(character)
  }

  /// `10s`, `1.5s`, `250ms`: decimal digits, at most one point, then the unit
  /// (no signs, exponents, hexadecimal or `inf`).
  static func duration(_ text: String) throws(Message) -> Duration {
    let (digits, unit): (Substring, Int64) =
      if text.hasSuffix("ms") { (text.dropLast(2), 1) } else if text.hasSuffix("s") {
        (text.dropLast(), 1000)
      } else { ("", 0) }
    let parts = digits.split(separator: ".", omittingEmptySubsequences: false)
    let isDecimal =
      (1...2).contains(parts.count) && parts.allSatisfy { !$0.isEmpty && $0.allSatisfy(\.isASCIIDigit) }
    guard unit > 0, isDecimal, let value = Double(digits), value <= 3600 * 1000 / Double(unit) else {
      throw Message("wait needs a duration such as 1s, 1.5s or 250ms")
    }
    return .milliseconds(Int64((value * Double(unit)).rounded()))
  }

  private static func expectation(_ text: String) throws(Message) -> LabelExpectation {
    if text == "clean" { return .equals("No issues detected") }
    let (word, rest) = text.splitFirstWord
    if word == "contains" { return .contains(try quoted(rest)) }
    return .equals(try quoted(text))
  }

  private static func quoted(_ text: String) throws(Message) -> String {
    guard text.count >= 2, text.first == "\"", text.last == "\"" else {
      throw Message("expect needs clean, a quoted label, or contains and quoted text")
    }
    var result = ""
    var escaped = false
    for character in text.dropFirst().dropLast() {
      if escaped {
        result.append(character)
        escaped = false
      } else if character == "\\" {
        escaped = true
      } else if character == "\"" {
        throw Message("unexpected quote inside quoted text")
      } else {
        result.append(character)
      }
    }
    return result
  }
}

/// Malformed step-script input, located by file and line.
public struct StepScriptError: Error, Equatable, CustomStringConvertible {
  /// The script file.
  public var file: String
  /// The 1-based line, or 0 when the error is about the whole file.
  public var line: Int
  /// What is wrong, in one line.
  public var message: String

  /// Creates an error.
  public init(file: String, line: Int, message: String) {
    self.file = file
    self.line = line
    self.message = message
  }

  /// `file:line: message`, or `file: message` for the whole file (line 0);
  /// the file name is escaped for display.
  public var description: String {
    let shownFile = DisplayText.escaped(file, limit: 200)
    return line > 0 ? "\(shownFile):\(line): \(message)" : "\(shownFile): \(message)"
  }
}

extension String {
  fileprivate var trimmingSpaces: String {
    var slice = Substring(self)
    while let first = slice.first, first.isWhitespace { slice.removeFirst() }
    while let last = slice.last, last.isWhitespace { slice.removeLast() }
    return String(slice)
  }

  fileprivate var splitFirstWord: (String, String) {
    guard let space = firstIndex(where: \.isWhitespace) else { return (self, "") }
    return (String(self[..<space]), String(self[space...]).trimmingSpaces)
  }
}

extension Character {
  fileprivate var isASCIIDigit: Bool { isASCII && isNumber }
}
