extension StringProtocol {
  /// The text cut to at most `width` columns, ending in `…` when something was cut.
  ///
  /// ```swift
  /// "NotificationObserverScreen".truncated(toWidth: 12)  // "Notificatio…"
  /// "漢字テスト".truncated(toWidth: 5)                      // "漢字…"
  /// ```
  public func truncated(toWidth width: Int) -> String {
    guard width > 0 else { return "" }
    guard displayWidth > width else { return String(self) }
    var result = ""
    var used = 0
    for character in self {
      let w = character.displayWidth
      if used + w > width - 1 { break }
      result.append(character)
      used += w
    }
    return result + "…"
  }

  /// The text followed by spaces up to `width` columns; unchanged when it is already as wide.
  ///
  /// ```swift
  /// "id".padded(toWidth: 4) + "|"    // "id  |"
  /// "漢字".padded(toWidth: 6) + "|"  // "漢字  |"
  /// ```
  public func padded(toWidth width: Int) -> String {
    let missing = width - displayWidth
    return missing > 0 ? String(self) + String(repeating: " ", count: missing) : String(self)
  }
}
