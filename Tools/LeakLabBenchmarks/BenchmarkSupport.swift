import Glibc
import LeakClock
import TextGrid

/// The median duration of `repetitions` runs of `body`.
func measure(repetitions: Int, _ body: () -> Void) -> Duration {
  let clock = ContinuousClock()
  return median(repetitions: repetitions) { clock.measure(body) }
}

/// The median of the durations `body` reports over `repetitions` runs, for a
/// benchmark that times only part of each run (setup and teardown excluded).
func median(repetitions: Int, _ body: () -> Duration) -> Duration {
  let durations = (0..<max(1, repetitions)).map { _ in body() }.sorted()
  return durations[durations.count / 2]
}

/// Whose CPU time `cpuTime` measures.
enum CPUClock {
  /// The calling thread's only.
  case thread
  /// Every thread of the process: work handed to other threads counts.
  case process

  var now: Duration {
    var now = timespec()
    clock_gettime(self == .thread ? CLOCK_THREAD_CPUTIME_ID : CLOCK_PROCESS_CPUTIME_ID, &now)
    return .seconds(now.tv_sec) + .nanoseconds(now.tv_nsec)
  }
}

/// The CPU time `clock` counts while `body` runs; waiting idle does not count.
func cpuTime(_ clock: CPUClock, _ body: () -> Void) -> Duration {
  let start = clock.now
  body()
  return clock.now - start
}

/// Nanoseconds per item, with one decimal: `48.3`.
func nanosecondsPerItem(_ duration: Duration, _ count: Int) -> String {
  let nanoseconds = Double(duration.wholeNanoseconds)
  return "\((nanoseconds / Double(count) * 10).rounded() / 10)"
}

/// Prints a table with a title, a header row and left-aligned columns.
func printTable(title: String, header: [String], rows: [[String]]) {
  let columns = header.indices.map { column in
    ([header] + rows).map { $0.indices.contains(column) ? $0[column].displayWidth : 0 }.max() ?? 0
  }
  func line(_ cells: [String]) -> String {
    cells.enumerated().map { column, cell in
      cell.padded(toWidth: columns[column])
    }.joined(separator: "  ")
  }
  print("\n\(title)")
  print(line(header))
  print(columns.map { String(repeating: "-", count: $0) }.joined(separator: "  "))
  for row in rows { print(line(row)) }
}

/// A duration in the most readable unit: `850 ns`, `4.2 µs`, `12.5 ms`, `1.20 s`.
func format(_ duration: Duration) -> String {
  let nanoseconds = Double(duration.wholeNanoseconds)
  switch nanoseconds {
  case ..<1_000: return "\(Int(nanoseconds.rounded())) ns"
  case ..<1_000_000: return "\(rounded(nanoseconds / 1_000)) µs"
  case ..<1_000_000_000: return "\(rounded(nanoseconds / 1_000_000)) ms"
  default: return "\(rounded(nanoseconds / 1_000_000_000)) s"
  }
}

/// `slower / faster` as `12.3x`.
func ratio(_ slower: Duration, _ faster: Duration) -> String {
  guard faster > .zero else { return "-" }
  return "\(rounded(slower / faster))x"
}

private func rounded(_ value: Double) -> String {
  let scaled = (value * 10).rounded() / 10
  return scaled == scaled.rounded() ? "\(Int(scaled))" : "\(scaled)"
}
