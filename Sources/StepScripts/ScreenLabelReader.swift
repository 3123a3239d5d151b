import TextGrid

/// Reads the summary label off a captured terminal screen.
///
/// The app draws the detector overlay as a box titled `Detector`; its inner
/// lines start with the summary label, wrapped only after `, `, and end at a
/// rule of `─`. Joining the wrapped lines with one space gives the exact label.
///
/// ```text
/// ┌─ Detector ─────────────────┐
/// │Leaked: AlertScreen#1,      │
/// │AlertController#1           │
/// │────────────────────────────│
/// ```
public enum ScreenLabelReader {
  /// The title of the overlay box.
  public static let title = "Detector"

  /// The label in the overlay on `screen` (one string per terminal row), or
  /// nil when no overlay is drawn.
  public static func label(in screen: [String]) -> String? {
    let markerText = "┌─ \(title) "
    let marker = Array(markerText)
    // Only a row that holds the marker, and the rows below it, are read column by column.
    for (index, line) in screen.enumerated() where line.contains(markerText) {
      let row = columns(line)
      let rows = screen.dropFirst(index + 1).lazy.map(columns)
      guard let left = firstIndex(of: marker, in: row) else { continue }
      let leftColumn = row[left].column
      guard let right = row[(left + marker.count)...].first(where: { $0.character == "┐" }) else { continue }
      var parts: [String] = []
      for below in rows {
        guard below.contains(where: { $0.column == leftColumn && $0.character == "│" }) else { break }
        let inner = String(
          below.filter { $0.column > leftColumn && $0.column < right.column }.map(\.character))
        let text = inner.trimmingCharacters(in: " ")
        if !text.isEmpty, text.allSatisfy({ $0 == "─" }) { break }
        if !text.isEmpty { parts.append(text) }
      }
      return parts.joined(separator: " ")
    }
    return nil
  }

  private struct Placed {
    let column: Int
    let character: Character
  }

  private static func firstIndex(of marker: [Character], in row: [Placed]) -> Int? {
    guard row.count >= marker.count else { return nil }
    return (0...(row.count - marker.count)).first { start in
      marker.indices.allSatisfy { row[start + $0].character == marker[$0] }
    }
  }

  /// Each character of a row with the display column it starts at.
  private static func columns(_ line: String) -> [Placed] {
    var column = 0
    var result: [Placed] = []
    for character in line {
      result.append(Placed(column: column, character: character))
      column += max(character.displayWidth, 0)
    }
    return result
  }
}

extension String {
  fileprivate func trimmingCharacters(in set: Character) -> String {
    var slice = Substring(self)
    while slice.first == set { slice.removeFirst() }
    while slice.last == set { slice.removeLast() }
    return String(slice)
  }
}
