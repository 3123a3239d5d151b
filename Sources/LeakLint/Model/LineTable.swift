import SwiftSyntax

/// Line and column of a position in one file's text, as the compiler counts
/// them (1-based, columns in UTF-8 bytes).
///
/// Made from the text's bytes in one pass (a newline search), instead of from
/// the syntax tree: the lint asks for a position for every closure, call and
/// store it records, and building swift-syntax's `SourceLocationConverter` for
/// each file cost as much as a tenth of parsing it.
struct LineTable: Sendable {
  /// The UTF-8 offset at which each line starts.
  private let starts: [Int]

  init(_ text: String) {
    var starts = [0]
    var text = text
    text.withUTF8 { bytes in
      for (offset, byte) in bytes.enumerated() where byte == UInt8(ascii: "\n") { starts.append(offset + 1) }
    }
    self.starts = starts
  }

  /// The 1-based line and column of `position`.
  func location(of position: AbsolutePosition) -> (line: Int, column: Int) {
    let offset = position.utf8Offset
    var low = 0
    var high = starts.count - 1
    while low < high {
      let middle = (low + high + 1) / 2
      if starts[middle] <= offset { low = middle } else { high = middle - 1 }
    }
    return (low + 1, offset - starts[low] + 1)
  }
}
