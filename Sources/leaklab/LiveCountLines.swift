import Foundation

/// The `live T: N` lines a fixture prints at exit (its own count of T's
/// instances, Tools/ServerFixtures' `LiveCount`), read by both oracles.
enum LiveCountLines {
  /// Each `live T: N` line of `output`, in order.
  static func parse(_ output: String) -> [(type: String, live: Int)] {
    output.split(separator: "\n").compactMap { line in
      guard line.hasPrefix("live "), let colon = line.lastIndex(of: ":"),
        let count = Int(line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces))
      else { return nil }
      return (String(line[line.index(line.startIndex, offsetBy: 5)..<colon]), count)
    }
  }
}
