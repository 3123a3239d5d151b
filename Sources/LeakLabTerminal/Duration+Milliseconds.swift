import Foundation

extension Duration {
  /// The duration in whole milliseconds, rounded down, clamped to `Int32`.
  var wholeMilliseconds: Int32 {
    let (seconds, attoseconds) = components
    return Int32(clamping: seconds * 1000 + attoseconds / 1_000_000_000_000_000)
  }
}

extension Duration {
  /// The duration in seconds, as `Date` and `RunLoop` count time.
  var timeInterval: TimeInterval {
    let (seconds, attoseconds) = components
    return TimeInterval(seconds) + TimeInterval(attoseconds) / 1e18
  }
}
