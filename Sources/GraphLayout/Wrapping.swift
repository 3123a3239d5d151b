import TextGrid

/// Breaking labels and node details into lines of a given width.
enum Wrapping {
  /// Word-wraps `text` to `width` columns. A word wider than a line (a long
  /// Swift name) is broken after a `.`, `(` or `,` where it can be, else anywhere.
  static func lines(_ text: String, width: Int) -> [String] {
    guard width > 0 else { return [] }
    var lines: [String] = []
    var current = ""
    for word in text.split(separator: " ").map(String.init) {
      for piece in pieces(of: word, width: width) {
        if current.isEmpty {
          current = piece
        } else if current.displayWidth + 1 + piece.displayWidth <= width {
          current += " " + piece
        } else {
          lines.append(current)
          current = piece
        }
      }
    }
    if !current.isEmpty { lines.append(current) }
    return lines
  }

  /// `word` cut into pieces of at most `width` columns, at punctuation where possible.
  private static func pieces(of word: String, width: Int) -> [String] {
    var pieces: [String] = []
    var rest = Substring(word)
    while rest.displayWidth > width {
      var used = 0
      var cut = rest.startIndex
      var lastBreak: String.Index?
      for index in rest.indices {
        let w = rest[index].displayWidth
        if used + w > width { break }
        used += w
        cut = rest.index(after: index)
        if ".(,:".contains(rest[index]) { lastBreak = cut }
      }
      if let lastBreak, rest.distance(from: rest.startIndex, to: lastBreak) * 2 >= width { cut = lastBreak }
      if cut == rest.startIndex { cut = rest.index(after: cut) }
      pieces.append(String(rest[..<cut]))
      rest = rest[cut...]
    }
    if !rest.isEmpty { pieces.append(String(rest)) }
    return pieces
  }
}
