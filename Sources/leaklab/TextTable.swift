import TextGrid

/// Lines of a plain-text table: a header, then rows, in left-aligned columns
/// two spaces apart; the last column is not padded.
func tableLines(header: [String], rows: [[String]]) -> [String] {
  let widths = header.indices.map { column in
    ([header] + rows).map { $0.indices.contains(column) ? $0[column].displayWidth : 0 }.max() ?? 0
  }
  func line(_ cells: [String]) -> String {
    var text = ""
    for (column, cell) in cells.enumerated() {
      text += column == cells.count - 1 ? cell : cell.padded(toWidth: widths[column]) + "  "
    }
    return text
  }
  return [line(header)] + rows.map(line)
}
