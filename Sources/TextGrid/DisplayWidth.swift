/// How many terminal columns a character takes: 0, 1 or 2.
///
/// A small `wcwidth` in pure Swift, so that layouts and snapshots do not depend
/// on the C library or the process locale:
/// - combining marks, format characters (zero-width space and joiners) and
///   control characters take 0 columns;
/// - East Asian wide and fullwidth characters (CJK, Hangul syllables, fullwidth
///   forms) and emoji with emoji presentation take 2;
/// - everything else takes 1.
///
/// It agrees with glibc's `wcwidth` in a UTF-8 locale — which is what ncurses
/// and tmux use to place characters — for assigned characters apart from a few
/// recently added ones (the terminal layer's tests compare them).
///
/// ```swift
/// "a".displayWidth       // 1
/// "漢".displayWidth      // 2
/// "e\u{301}".displayWidth  // 1: "é" as e + combining acute accent
/// "🐛 bug".displayWidth  // 6
/// ```
extension Unicode.Scalar {
  /// The number of terminal columns this scalar takes on its own: 0, 1 or 2.
  public var displayWidth: Int {
    let v = value
    if v < 0x7F { return v < 0x20 ? 0 : 1 }  // ASCII fast path
    // Box drawing, block elements and geometric shapes (borders, arrowheads):
    // one column, as wcwidth says; the Unicode property lookups below cost
    // more than the rest of drawing a box. U+25FD and U+25FE are emoji (two).
    if v >= 0x2500, v <= 0x25FC { return 1 }
    if v < 0xA0 { return 0 }  // DEL and C1 controls
    if v == 0xAD { return 1 }  // soft hyphen: glibc shows it
    // Hangul jamo medial vowels and final consonants join the syllable before them.
    if (0x1160...0x11FF).contains(v) || (0xD7B0...0xD7FF).contains(v) { return 0 }
    switch properties.generalCategory {
    case .nonspacingMark, .enclosingMark, .format, .control:
      return 0
    default:
      break
    }
    if properties.isEmojiPresentation && v >= 0x2000 { return 2 }
    return Self.isEastAsianWide(v) ? 2 : 1
  }

  /// East Asian Wide and Fullwidth ranges that are not emoji (sorted, inclusive).
  private static let wideRanges: [ClosedRange<UInt32>] = [
    0x1100...0x115F, 0x2329...0x232A, 0x2E80...0x303E, 0x3041...0x3247,
    0x3250...0x4DBF, 0x4E00...0xA4CF, 0xA960...0xA97F, 0xAC00...0xD7A3,
    0xF900...0xFAFF, 0xFE10...0xFE19, 0xFE30...0xFE6F, 0xFF00...0xFF60,
    0xFFE0...0xFFE6, 0x16FE0...0x16FE4, 0x16FF0...0x16FF1, 0x17000...0x18CFF,
    0x18D00...0x18D08, 0x1AFF0...0x1AFFE, 0x1B000...0x1B2FF, 0x1F200...0x1F202,
    0x1F210...0x1F23B, 0x1F240...0x1F248, 0x1F250...0x1F251, 0x1F260...0x1F265,
    0x20000...0x2FFFD, 0x30000...0x3FFFD,
  ]

  private static func isEastAsianWide(_ value: UInt32) -> Bool {
    guard value >= 0x1100 else { return false }
    var low = 0
    var high = wideRanges.count - 1
    while low <= high {
      let mid = (low + high) / 2
      let range = wideRanges[mid]
      if value < range.lowerBound {
        high = mid - 1
      } else if value > range.upperBound {
        low = mid + 1
      } else {
        return true
      }
    }
    return false
  }
}

extension Character {
  /// The number of terminal columns this character (grapheme cluster) takes: 0, 1 or 2.
  ///
  /// The width of its first scalar that takes any room; combining marks and
  /// joiners that follow add nothing. A cluster of only zero-width scalars
  /// (a lone combining mark, a control character) takes 0.
  public var displayWidth: Int {
    for scalar in unicodeScalars {
      let width = scalar.displayWidth
      if width > 0 { return width }
    }
    return 0
  }
}

extension StringProtocol {
  /// The number of terminal columns the text takes on one line.
  public var displayWidth: Int {
    reduce(0) { $0 + $1.displayWidth }
  }
}
