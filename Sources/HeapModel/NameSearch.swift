#if canImport(Glibc)
  import Glibc
#endif

/// Finding an ASCII piece in a long name by its UTF-8 bytes.
///
/// Demangled names run to hundreds of characters, and naming 10⁴ stack
/// frames searches each several times (`closure #`, ` in `, `thunk`):
/// `firstRange(of:)` compares characters and was a fifth of that time. The
/// pieces looked for are ASCII, so a byte match is a character match.
///
/// ```swift
/// "closure #1 in App.Feed.load()".firstNameRange(of: " in ")   // the range of " in "
/// ```
extension StringProtocol {
  /// The first range of `piece` (ASCII), or nil.
  package func firstNameRange(of piece: StaticString) -> Range<Index>? {
    nameRange(of: piece, last: false)
  }

  /// The last range of `piece` (ASCII), or nil.
  package func lastNameRange(of piece: StaticString) -> Range<Index>? {
    nameRange(of: piece, last: true)
  }

  /// Whether the text contains `piece` (ASCII).
  package func containsName(_ piece: StaticString) -> Bool {
    nameRange(of: piece, last: false) != nil
  }

  private func nameRange(of piece: StaticString, last: Bool) -> Range<Index>? {
    let length = piece.utf8CodeUnitCount
    let found = utf8.withContiguousStorageIfAvailable { text -> Int? in
      let needle = UnsafeBufferPointer(start: piece.utf8Start, count: length)
      guard length > 0, text.count >= length else { return nil }
      var match: Int?
      var start = 0
      let first = needle[0]
      while start <= text.count - length {
        if text[start] == first && memcmp(text.baseAddress! + start, needle.baseAddress!, length) == 0 {
          match = start
          if !last { break }
        }
        start += 1
      }
      return match
    }
    guard let found else {
      // Not contiguous (a bridged string): by characters.
      let ranges = ranges(of: piece.description)
      return last ? ranges.last : ranges.first
    }
    guard let offset = found else { return nil }
    let lower = utf8.index(utf8.startIndex, offsetBy: offset)
    return lower..<utf8.index(lower, offsetBy: length)
  }
}
