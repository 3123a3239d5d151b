import TextGrid

/// Reads the detector's summary label back from a screen, as the overlay draws it.
///
/// Step scripts and end-to-end tests read the label from the real terminal
/// (`tmux capture-pane`) or from a rendered grid's lines: find the top border
/// holding ` Detector `, take the text between that box's side borders on
/// the rows below, up to the `─` rule, trim each line and join them with one space.
///
/// ```swift
/// let screen = try session.capture()
/// OverlayReader.summaryLabel(in: screen)  // "Leaked: ClosureScreen#1"
/// ```
public enum OverlayReader {
  /// The overlay box's title.
  public static let title = "Detector"

  /// The summary label shown on `lines`, or `nil` when no overlay box is drawn.
  public static func summaryLabel(in lines: [String]) -> String? {
    let rows = lines.map(columns(of:))
    let marker = Array(" \(title) ")
    for (y, row) in rows.enumerated() {
      guard let start = firstIndex(of: marker, in: row) else { continue }
      // The box's corners: the `┌` left of the title and the `┐` right of it.
      guard let left = row[..<start].lastIndex(of: "┌"),
        let right = row[(start + marker.count)...].firstIndex(of: "┐")
      else { continue }
      var parts: [String] = []
      for line in rows[(y + 1)...] {
        guard line.count > right else { break }
        let inner = String(line[(left + 1)..<right])
        let trimmed = inner.trimmingSpaces
        if trimmed.first == "─" || line[left] == "└" { return parts.joined(separator: " ") }
        parts.append(trimmed)
      }
      return parts.isEmpty ? nil : parts.joined(separator: " ")
    }
    return nil
  }

  /// A screen row as one character per terminal column (a wide character
  /// takes its column and leaves a blank in the next).
  private static func columns(of line: String) -> [Character] {
    var result: [Character] = []
    for character in line {
      result.append(character)
      if character.displayWidth == 2 { result.append(" ") }
    }
    return result
  }

  private static func firstIndex(of needle: [Character], in row: [Character]) -> Int? {
    guard row.count >= needle.count else { return nil }
    for start in 0...(row.count - needle.count)
    where row[start..<(start + needle.count)].elementsEqual(needle) {
      return start
    }
    return nil
  }
}

extension String {
  fileprivate var trimmingSpaces: String {
    var slice = Substring(self)
    while slice.first == " " { slice.removeFirst() }
    while slice.last == " " { slice.removeLast() }
    return String(slice)
  }
}
