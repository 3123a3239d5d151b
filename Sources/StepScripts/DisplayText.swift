/// Text from a script, a file name or an argument, made safe to show in a
/// one-line message.
///
/// Control characters (an escape sequence would reach the user's terminal),
/// line breaks (a second line would look like a second message) and Unicode
/// bidirectional controls are written as escapes; text longer than the limit
/// is cut, saying how long it was.
///
/// ```swift
/// DisplayText.escaped("\u{1B}[2J")          // \u{1B}[2J
/// DisplayText.quoted("a\nb")                // "a\nb"
/// DisplayText.escaped(String(repeating: "x", count: 5000))  // xxx…(5000 characters)
/// ```
public enum DisplayText {
  /// The most characters shown of one piece of text.
  public static let defaultLimit = 80

  /// `text` with unprintable characters escaped and long text cut.
  public static func escaped(_ text: String, limit: Int = defaultLimit) -> String {
    escape(text, limit: limit, quotes: false)
  }

  /// `text` between double quotes, escaped as ``escaped(_:limit:)`` and with
  /// its own quotes and backslashes escaped.
  public static func quoted(_ text: String, limit: Int = defaultLimit) -> String {
    "\"" + escape(text, limit: limit, quotes: true) + "\""
  }

  private static func escape(_ text: String, limit: Int, quotes: Bool) -> String {
    var result = ""
    var shown = 0
    for scalar in text.unicodeScalars {
      if shown == limit {
        result += "…(\(text.unicodeScalars.count) characters)"
        break
      }
      shown += 1
      switch scalar {
      case "\n": result += "\\n"
      case "\r": result += "\\r"
      case "\t": result += "\\t"
      case "\"" where quotes: result += "\\\""
      case "\\" where quotes: result += "\\\\"
      default:
        if isUnprintable(scalar) {
          result += "\\u{\(String(scalar.value, radix: 16, uppercase: true))}"
        } else {
          result.unicodeScalars.append(scalar)
        }
      }
    }
    return result
  }

  /// C0 and C1 controls, DEL, line and paragraph separators, and the
  /// bidirectional formatting characters (which can reorder what follows).
  private static func isUnprintable(_ scalar: Unicode.Scalar) -> Bool {
    switch scalar.value {
    case 0x00...0x1F, 0x7F...0x9F: true
    case 0x200E, 0x200F, 0x2028, 0x2029, 0x202A...0x202E, 0x2066...0x2069: true
    default: false
    }
  }
}
