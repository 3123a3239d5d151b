/// How durations read on screen: `12.3 s` in the log, `4 s` for a leak's age.
enum TimeFormat {
  /// Seconds with one decimal: `0.0 s`, `12.3 s`.
  static func tenths(_ duration: Duration) -> String {
    let (seconds, attoseconds) = duration.components
    let tenths = (Double(seconds) * 10 + Double(attoseconds) / 1e17).rounded()
    let whole = Int(tenths) / 10
    let fraction = abs(Int(tenths) % 10)
    return "\(whole).\(fraction) s"
  }

  /// Whole seconds, rounded down: `4 s`.
  static func wholeSeconds(_ duration: Duration) -> String {
    "\(duration.components.seconds) s"
  }
}
