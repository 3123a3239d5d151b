import TextGrid

/// Breaking text into lines that fit a width, in terminal columns.
enum TextWrapping {
  /// Word-wraps `text` to `width` columns; a word longer than a line is cut
  /// with `…`, or (`cutsLongWords: false`) broken over lines so nothing is
  /// lost: after a `(`, `,`, `.`, `:` or `/` inside it where one fits, as code is
  /// (``code(_:width:)``), else at the width.
  ///
  /// ```swift
  /// TextWrapping.words("scheduledTimer(withTimeInterval:) without", width: 20, cutsLongWords: false)
  /// // ["scheduledTimer(", "withTimeInterval:)", "without"]
  /// ```
  static func words(_ text: String, width: Int, cutsLongWords: Bool = true) -> [String] {
    guard width > 0 else { return [] }
    var lines: [String] = []
    var current = ""
    for piece in text.split(separator: " ") {
      var word = String(piece)
      if cutsLongWords {
        word = word.truncated(toWidth: width)
      } else {
        while word.displayWidth > width {
          if !current.isEmpty {
            lines.append(current)
            current = ""
          }
          let head = head(ofLongWord: word, room: width)
          lines.append(head)
          word = String(word.dropFirst(head.count))
        }
      }
      if current.isEmpty {
        current = word
      } else if current.displayWidth + 1 + word.displayWidth <= width {
        current += " " + word
      } else {
        lines.append(current)
        current = word
      }
    }
    if !current.isEmpty { lines.append(current) }
    return lines
  }

  /// Word-wraps `text` with its first line `width` columns wide and the
  /// others `restWidth` (a hanging indent); a word wider than its line is
  /// broken over lines (after a `(`, `,`, `.`, `:` or `/` where one fits), so
  /// nothing is lost and no line is too wide.
  ///
  /// ```swift
  /// TextWrapping.words("captures LoadFeedUseCase#1 (strong)", width: 30, restWidth: 20)
  /// // ["captures LoadFeedUseCase#1", "(strong)"]
  /// ```
  static func words(_ text: String, width: Int, restWidth: Int) -> [String] {
    guard width > 0, restWidth > 0 else { return [] }
    var lines: [String] = []
    var current = ""
    var room: Int { lines.isEmpty ? width : restWidth }
    for piece in text.split(separator: " ") {
      var word = String(piece)
      if !current.isEmpty, current.displayWidth + 1 + word.displayWidth <= room {
        current += " " + word
        continue
      }
      if !current.isEmpty {
        lines.append(current)
        current = ""
      }
      while word.displayWidth > room {
        let head = head(ofLongWord: word, room: room)
        lines.append(head)
        word = String(word.dropFirst(head.count))
      }
      current = word
    }
    if !current.isEmpty { lines.append(current) }
    return lines
  }

  /// A code line broken to `width` columns: at spaces, else after `(`, `,`,
  /// `.`, `:` or `/` (a path) inside a long token, else (an identifier wider than a line)
  /// anywhere. Continuations keep the line's indent plus two (at most a third
  /// of the width), less when an identifier would not fit otherwise.
  ///
  /// ```swift
  /// TextWrapping.code("service.run(completion: handleResponse)", width: 17)
  /// // ["service.run(", "  completion:", "  handleResponse)"]
  /// ```
  static func code(_ text: String, width: Int) -> [String] {
    guard width > 0, text.displayWidth > width else { return [text] }
    let indent = String(text.prefix { $0 == " " })
    let continuation = String(repeating: " ", count: min(indent.count + 2, width / 3))
    var lines: [String] = []
    var current = indent
    var rest = Substring(text.dropFirst(indent.count))
    while !rest.isEmpty {
      var room = width - current.displayWidth
      let unbreakable = firstUnbreakableWidth(of: rest)
      if unbreakable > room, current.allSatisfy({ $0 == " " }) {
        // An identifier is never cut while it fits on a line: indent less.
        current = String(repeating: " ", count: max(0, min(current.count, width - unbreakable)))
        room = width - current.displayWidth
      }
      if rest.displayWidth <= room {
        current += rest
        break
      }
      let cut = breakPoint(in: rest, room: room, lineIsEmpty: current.allSatisfy { $0 == " " })
      if cut == rest.startIndex {
        // Nothing fits on this line: start the next one.
        lines.append(current)
        current = continuation
        continue
      }
      current += rest[..<cut]
      lines.append(String(current.reversed().drop { $0 == " " }.reversed()))
      rest = rest[cut...].drop { $0 == " " }
      current = continuation
    }
    if current.contains(where: { $0 != " " }) { lines.append(current) }
    return lines
  }

  /// Where a long token may break: after one of these.
  private static let breakAfter: Set<Character> = ["(", ",", ".", ":", "/"]

  /// The width of `text`'s first part that cannot be broken: up to its first
  /// space, or through its first `(`, `,`, `.`, `:` or `/`.
  private static func firstUnbreakableWidth(of text: Substring) -> Int {
    var width = 0
    for character in text {
      if character == " " { break }
      width += character.displayWidth
      if breakAfter.contains(character) { break }
    }
    return width
  }

  /// Where to end a line that can hold `room` columns of `text`: after the
  /// last space that fits, else after the last `/` (a path), else after the
  /// last `(`, `,`, `.` or `:`, else at `room` (only when the line is empty:
  /// otherwise the token moves down).
  private static func breakPoint(in text: Substring, room: Int, lineIsEmpty: Bool) -> Substring.Index {
    var end = text.startIndex
    var used = 0
    var lastSpace: Substring.Index?
    var lastPunctuation: Substring.Index?
    var lastSlash: Substring.Index?
    while end < text.endIndex {
      let width = text[end].displayWidth
      if used + width > room { break }
      used += width
      let next = text.index(after: end)
      if text[end] == " " { lastSpace = next }
      if breakAfter.contains(text[end]) { lastPunctuation = next }
      if text[end] == "/" { lastSlash = next }
      end = next
    }
    if let lastSpace { return lastSpace }
    if !lineIsEmpty { return text.startIndex }
    // A path breaks between its folders, not inside `main.swift`.
    return lastSlash ?? lastPunctuation ?? end
  }

  /// The part of a word wider than `room` columns that starts a line:
  /// through the last `(`, `,`, `.`, `:` or `/` that fits, else as much as fits
  /// (at least one character).
  private static func head(ofLongWord word: String, room: Int) -> String {
    let cut = breakPoint(in: Substring(word), room: room, lineIsEmpty: true)
    return cut == word.startIndex ? word.prefix(columns: room) : String(word[..<cut])
  }

  /// Wraps a list at its `separator` (`, ` or ` → `): a line breaks only
  /// between items, the separator's first part (`,`) stays at the end of the
  /// line and continuation lines start with the next item. An item wider than
  /// the line is cut with `…`.
  ///
  /// ```swift
  /// TextWrapping.list("Leaked: A#1, B#1", separator: ", ", width: 12)
  /// // ["Leaked: A#1,", "B#1"]
  /// ```
  static func list(_ text: String, separator: String, width: Int, keepsSeparatorAtEnd: Bool = true)
    -> [String]
  {
    guard width > 0 else { return [] }
    let items = text.split(separator: separator, omittingEmptySubsequences: false).map(String.init)
    let tail = keepsSeparatorAtEnd ? String(separator.trimmingTrailingSpaces) : ""
    let head = keepsSeparatorAtEnd ? "" : String(separator.trimmingLeadingSpaces)
    var lines: [String] = []
    var current = ""
    for (index, item) in items.enumerated() {
      var piece = item
      if index < items.count - 1 { piece += tail }
      if index > 0 { piece = head + piece }
      if current.isEmpty {
        current = piece.truncated(toWidth: width)
      } else if current.displayWidth + 1 + piece.displayWidth <= width {
        current += " " + piece
      } else {
        lines.append(current)
        current = piece.truncated(toWidth: width)
      }
    }
    if !current.isEmpty { lines.append(current) }
    return lines
  }
}

extension String {
  /// The longest prefix at most `columns` wide (at least one character).
  fileprivate func prefix(columns: Int) -> String {
    var result = ""
    for character in self {
      if !result.isEmpty, result.displayWidth + character.displayWidth > columns { break }
      result.append(character)
    }
    return result
  }

  fileprivate var trimmingTrailingSpaces: Substring {
    var slice = Substring(self)
    while slice.last == " " { slice.removeLast() }
    return slice
  }

  fileprivate var trimmingLeadingSpaces: Substring {
    var slice = Substring(self)
    while slice.first == " " { slice.removeFirst() }
    return slice
  }
}

extension Grid {
  /// Writes `lines` from the top of `area`, one per row, clipped to it; returns the rows used.
  @discardableResult
  mutating func putLines(_ lines: [(String, Style)], in area: Rect) -> Int {
    var row = 0
    for (text, style) in lines where row < area.height {
      put(text, at: Point(x: area.minX, y: area.minY + row), style: style, maxWidth: area.width)
      row += 1
    }
    return row
  }
}
