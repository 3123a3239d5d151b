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
}
