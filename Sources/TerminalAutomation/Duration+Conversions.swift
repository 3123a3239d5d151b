extension Duration {
  /// The duration in whole milliseconds, rounded down, clamped to `Int32` (for `poll`).
  var wholeMilliseconds: Int32 {
    let (seconds, attoseconds) = components
    return Int32(clamping: seconds * 1000 + attoseconds / 1_000_000_000_000_000)
  }

  /// The duration in seconds, for `Thread.sleep(forTimeInterval:)`.
  var secondsValue: Double {
    Double(components.seconds) + Double(components.attoseconds) / 1e18
  }
}
