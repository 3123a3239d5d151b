import TextGrid

/// Breaking text into lines that fit a width, in terminal columns.
enum TextWrapping {
  /// Word-wraps `text` to `width` columns; a word longer than a line is cut
  /// with `…`, or (`cutsLongWords: false`) broken over lines so nothing is lost.
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
          let head = word.prefix(columns: width)
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
  /// broken over lines, so nothing is lost and no line is too wide.
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
        let head = word.prefix(columns: room)
        lines.append(head)
        word = String(word.dropFirst(head.count))
      }
      current = word
    }
    if !current.isEmpty { lines.append(current) }
    return lines
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
