/// Small timing helpers for `make bench`: medians of repeated runs, printed as tables.
enum Bench {
  /// Runs `body` `repetitions` times and returns the median of the durations it reports.
  static func median(repetitions: Int, _ body: () -> Duration) -> Duration {
    precondition(repetitions > 0)
    let samples = (0..<repetitions).map { _ in body() }.sorted()
    return samples[samples.count / 2]
  }

  /// Measures one call of `body` on the monotonic clock.
  static func time(_ body: () -> Void) -> Duration {
    ContinuousClock().measure(body)
  }

  /// Prints a table with a title, right-aligned columns and a rule under the header.
  static func printTable(title: String, header: [String], rows: [[String]]) {
    let columns = header.indices.map { column in
      ([header[column]] + rows.map { $0[column] }).map(\.count).max() ?? 0
    }
    func line(_ cells: [String]) -> String {
      zip(cells, columns).map { String(repeating: " ", count: $1 - $0.count) + $0 }
        .joined(separator: "  ")
    }
    print("\n\(title)")
    print(line(header))
    print(String(repeating: "-", count: columns.reduce(0, +) + 2 * (columns.count - 1)))
    for row in rows { print(line(row)) }
  }
}

extension Duration {
  /// Nanoseconds as a `Double`.
  var nanoseconds: Double {
    let (seconds, attoseconds) = components
    return Double(seconds) * 1e9 + Double(attoseconds) / 1e9
  }
}

extension Double {
  /// A number with `digits` decimals.
  func fixed(_ digits: Int) -> String {
    var scale = 1.0
    for _ in 0..<digits { scale *= 10 }
    let rounded = (self * scale).rounded() / scale
    var text = "\(rounded)"
    if let dot = text.firstIndex(of: ".") {
      let decimals = text.distance(from: dot, to: text.endIndex) - 1
      if decimals < digits { text += String(repeating: "0", count: digits - decimals) }
      if digits == 0 { text = String(text[..<dot]) }
    }
    return text
  }
}
