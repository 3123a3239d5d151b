import CNcurses
import TextGrid

/// Maps styles to curses attributes and colour pairs, allocating pairs as styles appear.
///
/// In monochrome mode colours are dropped; a style with a background colour
/// (a selection bar, a badge) is drawn in reverse video so it stays visible.
@MainActor
final class ColorPairs {
  let mode: Terminal.ColorMode
  private let usesDefaultColors: Bool
  private var pairs: [ColorKey: Int16] = [:]
  private var cache: [Style: (attributes: attr_t, pair: Int16)] = [:]
  private let maximumPair: Int

  private struct ColorKey: Hashable {
    var foreground: Color
    var background: Color
  }

  init(mode: Terminal.ColorMode, usesDefaultColors: Bool) {
    self.mode = mode
    self.usesDefaultColors = usesDefaultColors
    maximumPair = mode == .color ? min(Int(cn_color_pairs()) - 1, Int(Int16.max)) : 0
  }

  /// The attributes and colour pair that draw `style`.
  func resolve(_ style: Style) -> (attributes: attr_t, pair: Int16) {
    if let hit = cache[style] { return hit }
    var attributes = style.attributes
    var pair: Int16 = 0
    switch mode {
    case .monochrome:
      if style.background != .default { attributes.insert(.reverse) }
    case .color:
      pair = self.pair(for: ColorKey(foreground: style.foreground, background: style.background))
    }
    let result = (
      cn_attributes(
        attributes.contains(.bold), attributes.contains(.dim), attributes.contains(.reverse),
        attributes.contains(.underline)),
      pair
    )
    cache[style] = result
    return result
  }

  private func pair(for key: ColorKey) -> Int16 {
    if key.foreground == .default && key.background == .default { return 0 }
    if let pair = pairs[key] { return pair }
    let next = pairs.count + 1
    guard next <= maximumPair else { return 0 }
    init_pair(
      Int16(next), cursesColor(key.foreground, isForeground: true),
      cursesColor(key.background, isForeground: false))
    pairs[key] = Int16(next)
    return Int16(next)
  }

  /// The curses colour number; `-1` is the terminal's default when `use_default_colors` worked.
  private func cursesColor(_ color: Color, isForeground: Bool) -> Int16 {
    guard color == .default else { return Int16(color.rawValue) }
    if usesDefaultColors { return -1 }
    return isForeground ? Int16(COLOR_WHITE) : Int16(COLOR_BLACK)
  }
}
