import Foundation
import HeapModel

/// Censuses of one process taken in a row, as a timeline per type: how
/// each type's live count and bytes moved from one census to the next.
///
/// ```swift
/// var censuses: [TakenCensus] = []
/// for _ in 0..<5 {
///   censuses.append(try CensusRun.attached(pid: pid))
///   sleep(2)
/// }
/// let timeline = CensusTimeline(censuses)
/// timeline.series.first?.counts  // [50, 100, 150, 200, 250]
/// ```
public struct CensusTimeline: Sendable {
  /// One type's counts, census by census.
  public struct Series: Sendable, Hashable {
    public var key: String
    public var name: String
    public var qualifiedName: String?
    public var kind: BlockKind
    public var module: String?
    public var isProgramType: Bool
    public var counts: [Int]
    public var bytes: [Int]

    /// The change from the first census to the last.
    public var growth: Int { (counts.last ?? 0) - (counts.first ?? 0) }
    public var byteGrowth: Int { (bytes.last ?? 0) - (bytes.first ?? 0) }
    /// Whether the count never went down and ended higher: what a leak of
    /// kept memory looks like.
    public var growsSteadily: Bool { growth > 0 && zip(counts, counts.dropFirst()).allSatisfy { $0 <= $1 } }
  }

  /// The censuses: when each was taken, how long the process was stopped, its totals.
  public var points: [Point]
  /// Every type seen in any census (free memory malloc counts as live left
  /// out), the largest growth first (by `order`; on a tie, the program's own
  /// types first).
  public var series: [Series]

  public struct Point: Sendable, Hashable {
    public var time: Date
    public var stoppedMilliseconds: Double
    public var blocks: Int
    public var bytes: Int
  }

  public init(_ censuses: [TakenCensus], order: HeapCensus.Order = .count) {
    points = censuses.map {
      Point(
        time: $0.time, stoppedMilliseconds: $0.stoppedMilliseconds, blocks: $0.census.blocks,
        bytes: $0.census.bytes)
    }
    var byKey: [String: Series] = [:]
    var keyOrder: [String] = []
    for (index, taken) in censuses.enumerated() {
      // Free memory malloc counts as live is no object (as in ``CensusDiff``).
      for entry in taken.census.entries where !entry.kind.isFree {
        if byKey[entry.key] == nil {
          keyOrder.append(entry.key)
          byKey[entry.key] = Series(
            key: entry.key, name: entry.name, qualifiedName: entry.qualifiedName, kind: entry.kind,
            module: entry.module,
            isProgramType: entry.isProgramType, counts: Array(repeating: 0, count: censuses.count),
            bytes: Array(repeating: 0, count: censuses.count))
        }
        byKey[entry.key]!.counts[index] = entry.count
        byKey[entry.key]!.bytes[index] = entry.bytes
      }
    }
    series = keyOrder.compactMap { byKey[$0] }.sorted { left, right in
      let (a, b) = order == .count ? (left.growth, right.growth) : (left.byteGrowth, right.byteGrowth)
      if a != b { return a > b }
      if left.isProgramType != right.isProgramType { return left.isProgramType }
      return (left.name, left.key) < (right.name, right.key)
    }
  }

  /// The series whose growth from the first census to the last is past
  /// `threshold`, of types matching one of `patterns` (all when none).
  public func grown(pastThreshold threshold: Int, matching patterns: [String]) -> [Series] {
    series.filter {
      $0.growth > threshold && TypePatterns.matches(patterns, name: $0.name, qualifiedName: $0.qualifiedName)
    }
  }

  /// `▁▃▄▆█`: one bar per census, from the series' lowest count to its highest.
  public static func sparkline(_ values: [Int]) -> String {
    let bars = Array("▁▂▃▄▅▆▇█")
    guard let low = values.min(), let high = values.max() else { return "" }
    guard high > low else { return String(repeating: bars[0], count: values.count) }
    return String(values.map { bars[($0 - low) * (bars.count - 1) / (high - low)] })
  }
}

/// A timeline as JSON (`leaklab heap --every S --count K --json`; schema:
/// docs/heap-json.md): each census's time and totals, each type's series.
public struct TimelineDocument: Codable, Sendable {
  public var schema: Int
  public var process: CensusDocument.Process
  public var censuses: [Census]
  public var series: [Series]

  public struct Census: Codable, Sendable {
    public var time: Date
    public var stoppedMilliseconds: Double
    public var blocks: Int
    public var bytes: Int
  }

  public struct Series: Codable, Sendable {
    public var key: String
    public var name: String
    public var kind: String
    public var module: String?
    public var programType: Bool
    public var counts: [Int]
    public var bytes: [Int]
    public var growth: Int
  }

  public init(_ timeline: CensusTimeline, process: CheckedProcess) {
    schema = CensusDocument.currentSchema
    self.process = CensusDocument.Process(process)
    censuses = timeline.points.map {
      Census(
        time: $0.time, stoppedMilliseconds: ($0.stoppedMilliseconds * 10).rounded() / 10, blocks: $0.blocks,
        bytes: $0.bytes)
    }
    series = timeline.series.map {
      Series(
        key: $0.key, name: $0.name, kind: "\($0.kind)", module: $0.module, programType: $0.isProgramType,
        counts: $0.counts, bytes: $0.bytes, growth: $0.growth)
    }
  }

  public func encoded() -> Data {
    let encoder = JSONEncoder()
    encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
    encoder.dateEncodingStrategy = .iso8601
    return (try? encoder.encode(self)) ?? Data()
  }
}
