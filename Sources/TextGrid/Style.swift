/// How a cell is drawn: foreground and background colour plus text attributes.
///
/// A few semantic styles (``title``, ``selected``, ``alert``, …) give the app
/// one place to decide what "selected" looks like; each carries an attribute as
/// well as a colour, so it still reads on a monochrome terminal.
///
/// ```swift
/// grid.put("Leaked: AlertScreen#1", at: Point(x: 1, y: 0), style: .alert)
/// grid.put("ok", at: Point(x: 1, y: 1), style: Style(foreground: .green, attributes: .bold))
/// ```
public struct Style: Hashable, Sendable {
  /// The text colour.
  public var foreground: Color
  /// The cell's background colour.
  public var background: Color
  /// Bold, dim, reverse video, underline.
  public var attributes: Attributes

  /// Creates a style; every part defaults to the terminal's plain text.
  public init(foreground: Color = .default, background: Color = .default, attributes: Attributes = []) {
    self.foreground = foreground
    self.background = background
    self.attributes = attributes
  }

  /// Text attributes that combine with any colour.
  public struct Attributes: OptionSet, Hashable, Sendable {
    public let rawValue: UInt8
    public init(rawValue: UInt8) { self.rawValue = rawValue }

    public static let bold = Attributes(rawValue: 1 << 0)
    public static let dim = Attributes(rawValue: 1 << 1)
    public static let reverse = Attributes(rawValue: 1 << 2)
    public static let underline = Attributes(rawValue: 1 << 3)
  }

  /// This style with `attributes` added.
  public func adding(_ attributes: Attributes) -> Style {
    var copy = self
    copy.attributes.formUnion(attributes)
    return copy
  }

  // MARK: Semantic styles

  /// The terminal's plain text.
  public static let plain = Style()
  /// Headings and box titles: bold.
  public static let title = Style(attributes: .bold)
  /// Secondary text (hints, ages, help): dim.
  public static let muted = Style(attributes: .dim)
  /// The highlighted row of a list: reverse video.
  public static let selected = Style(attributes: .reverse)
  /// A problem the user must see (a leak): bold red.
  public static let alert = Style(foreground: .red, attributes: .bold)
  /// A warning or something pending: yellow, underlined.
  public static let warning = Style(foreground: .yellow, attributes: .underline)
  /// Something that went right (no issues, resolved): green.
  public static let success = Style(foreground: .green)
  /// A key name in help text: bold cyan.
  public static let key = Style(foreground: .cyan, attributes: .bold)
}
