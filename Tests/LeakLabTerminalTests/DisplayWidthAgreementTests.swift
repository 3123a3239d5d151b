import CNcurses
import Testing
import TextGrid

/// TextGrid's width must match glibc's `wcwidth`, which ncurses and tmux use to
/// place characters; otherwise a line with that character would shift.
@Suite struct DisplayWidthAgreementTests {
  /// Blocks the app draws from: Latin, Greek, Cyrillic, arrows, box drawing,
  /// symbols, CJK, Hangul, fullwidth forms and emoji.
  static let ranges: [ClosedRange<UInt32>] = [
    0x20...0x7E, 0xA0...0x24F, 0x300...0x36F, 0x370...0x4FF, 0x2000...0x206F, 0x2190...0x21FF,
    0x2500...0x259F, 0x25A0...0x27BF, 0x2B00...0x2BFF, 0x3000...0x30FF, 0x4E00...0x4FFF, 0xAC00...0xAD00,
    0xFE00...0xFE0F, 0xFF00...0xFFEF, 0x1F300...0x1F64F, 0x1F680...0x1F6FF, 0x1F900...0x1F9FF,
  ]

  @Test func theWidthAgreesWithGlibcForAssignedCharacters() throws {
    try #require(cn_wcwidth_utf8(0x6F22) == 2, "the C.UTF-8 locale is not available")
    var disagreements: [String] = []
    for range in Self.ranges {
      for value in range {
        guard let scalar = Unicode.Scalar(value) else { continue }
        let category = scalar.properties.generalCategory
        guard category != .unassigned, category != .privateUse, category != .surrogate else { continue }
        let glibc = Int(cn_wcwidth_utf8(wchar_t(bitPattern: value)))
        guard glibc >= 0 else { continue }  // unprintable for glibc: TextGrid draws a replacement
        if glibc != scalar.displayWidth {
          disagreements.append(
            "U+\(String(value, radix: 16, uppercase: true)) glibc \(glibc) ours \(scalar.displayWidth)")
        }
      }
    }
    #expect(
      disagreements.isEmpty, "\(disagreements.count): \(disagreements.prefix(20).joined(separator: ", "))")
  }
}
