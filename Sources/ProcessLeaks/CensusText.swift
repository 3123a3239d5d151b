import Foundation
import HeapModel

/// The text reports of `leaklab heap`: a census, a diff, a timeline.
///
/// ```swift
/// let lines = CensusText.census(taken, order: .bytes, top: 25)
/// print(lines.joined(separator: "\n"))
/// ```
public enum CensusText {
  /// A census: the header, then one row per type (count, bytes, type, module).
  public static func census(_ taken: TakenCensus, order: HeapCensus.Order, top: Int) -> [String] {
    let census = taken.census
    var lines = [header(taken)]
    lines.append(
      "\(census.blocks.formatted()) live blocks, \(byteText(census.bytes)), \(census.entries.count) types; "
        + "the most \(order == .bytes ? "bytes" : "instances") first")
    lines.append("")
    let shown = census.sorted(by: order).prefix(top)
    lines += table(
      header: ["count", "bytes", "type", "module"], rightAligned: [0, 1],
      rows: shown.map { [$0.count.formatted(), byteText($0.bytes), $0.name, moduleText($0)] })
    if census.entries.count > shown.count {
      lines.append(
        "… and \(census.entries.count - shown.count) more types (--top \(census.entries.count) shows all)")
    }
    return lines + notes(taken)
  }

  /// A diff: what grew (each with a path to a new instance), what shrank,
  /// and which types grew past `threshold`.
  public static func diff(
    _ taken: TakenCensus, earlier: CensusDocument, threshold: Int, gate: [String] = [], top: Int
  ) -> [String] {
    guard let comparison = taken.comparison else { return census(taken, order: .count, top: top) }
    let diff = comparison.diff
    let seconds = taken.time.timeIntervalSince(earlier.time)
    let earlierName = URL(fileURLWithPath: earlier.process.executable).lastPathComponent
    var lines = [
      header(taken),
      "compared with the census of \(earlierName) (pid \(earlier.process.pid)) taken \(durationText(seconds)) "
        + "earlier: \(signed(diff.newBlocks - diff.oldBlocks)) blocks, \(signedBytes(diff.newBytes - diff.oldBytes))",
      "",
    ]
    if diff.grown.isEmpty {
      lines.append("Nothing grew.")
    } else {
      lines.append("Grew (\(diff.grown.count) type\(diff.grown.count == 1 ? "" : "s")):")
      for change in diff.grown.prefix(top) {
        let fresh = change.newInstances.map { $0 != change.growth ? ", \($0.formatted()) new" : "" } ?? ""
        lines.append(
          "\(signed(change.growth).padded(10, left: true))  \(change.name)\(moduleSuffix(change))  "
            + "\(change.oldCount.formatted()) → \(change.newCount.formatted())\(fresh), "
            + signedBytes(change.byteGrowth))
        let path = comparison.paths[change.key]
        if let path { lines.append(String(repeating: " ", count: 12) + path.text) }
        if let site = comparison.sites[change.key] {
          lines.append(String(repeating: " ", count: 12) + site.summary)
        }
        if let path {
          let reading = path.reading(grown: CensusRun.grownReason(change))
          if let look = reading.whereToLook(onRootPath: path.retainPath) {
            lines.append(String(repeating: " ", count: 12) + look)
          }
        }
      }
      if diff.grown.count > top { lines.append("  … and \(diff.grown.count - top) more types that grew") }
    }
    if !diff.shrunk.isEmpty {
      lines.append("")
      lines.append("Shrank (\(diff.shrunk.count) type\(diff.shrunk.count == 1 ? "" : "s")):")
      for change in diff.shrunk.prefix(top) {
        lines.append(
          "\(signed(change.growth).padded(10, left: true))  \(change.name)\(moduleSuffix(change))  "
            + "\(change.oldCount.formatted()) → \(change.newCount.formatted()), \(signedBytes(change.byteGrowth))"
        )
      }
      if diff.shrunk.count > top { lines.append("  … and \(diff.shrunk.count - top) more types that shrank") }
    }
    lines.append("")
    let past = diff.grown(pastThreshold: threshold, matching: gate)
    let which = gate.isEmpty ? "" : " matching --gate"
    lines.append(
      past.isEmpty
        ? "No type\(which) grew by more than \(threshold) (--threshold)."
        : "\(past.count) type\(past.count == 1 ? "" : "s")\(which) grew by more than \(threshold) (--threshold): "
          + past.prefix(5).map { "\($0.name) \(signed($0.growth))" }.joined(separator: ", ")
          + (past.count > 5 ? ", …" : ""))
    return lines + notes(taken)
  }

  /// A timeline: per type, its first and last count, the change and a bar per census.
  public static func timeline(
    _ timeline: CensusTimeline, process: CheckedProcess, every seconds: Double, top: Int
  ) -> [String] {
    let name = URL(fileURLWithPath: process.executable).lastPathComponent
    let stops = timeline.points.map(\.stoppedMilliseconds)
    let stopped =
      stops.isEmpty
      ? "" : "; stopped \(millisecondsText(stops.min()!))–\(millisecondsText(stops.max()!)) each"
    var lines = [
      "leaklab heap: \(name) (pid \(process.pid)), \(timeline.points.count) censuses "
        + "every \(durationText(seconds))\(stopped)",
      "",
    ]
    let changed = timeline.series.filter { $0.growth != 0 || Set($0.counts).count > 1 }
    let shown = changed.prefix(top)
    lines += table(
      header: ["type", "module", "first", "last", "change", "timeline"], rightAligned: [2, 3, 4],
      rows: shown.map {
        [
          $0.name, ($0.module ?? "") + ($0.isProgramType ? " (program)" : ""),
          ($0.counts.first ?? 0).formatted(), ($0.counts.last ?? 0).formatted(), signed($0.growth),
          CensusTimeline.sparkline($0.counts) + ($0.growsSteadily ? "  grows" : ""),
        ]
      })
    if changed.count > shown.count {
      lines.append("… and \(changed.count - shown.count) more types that changed")
    }
    let steady = timeline.series.count - changed.count
    lines.append("\(steady) type\(steady == 1 ? "" : "s") unchanged.")
    return lines
  }

  // MARK: Parts

  static func header(_ taken: TakenCensus) -> String {
    let name = URL(fileURLWithPath: taken.process.executable).lastPathComponent
    let how = taken.process.ending.map { "\($0)" } ?? "stopped and let go"
    return "leaklab heap: \(name) (pid \(taken.process.pid)) \(how); "
      + "stopped for \(millisecondsText(taken.stoppedMilliseconds))"
  }

  static func notes(_ taken: TakenCensus) -> [String] {
    taken.heapWalkNotes.isEmpty ? [] : [""] + taken.heapWalkNotes.map { "note: \($0)" }
  }

  static func moduleText(_ entry: HeapCensus.Entry) -> String {
    (entry.module ?? entry.image ?? "") + (entry.isProgramType ? " (program)" : "")
  }

  static func moduleSuffix(_ change: CensusDiff.Change) -> String {
    guard let module = change.module ?? change.image else { return "" }
    return "  [\(module)\(change.isProgramType ? ", program" : "")]"
  }

  /// `+200`, `-3`, `0`.
  public static func signed(_ value: Int) -> String {
    value > 0 ? "+\(value.formatted())" : value.formatted()
  }

  static func signedBytes(_ value: Int) -> String {
    value > 0 ? "+" + byteText(value) : value < 0 ? "-" + byteText(-value) : "0 B"
  }

  /// `824 B`, `11.7 KiB`, `95.5 MiB`.
  public static func byteText(_ bytes: Int) -> String {
    if bytes < 1024 { return "\(bytes) B" }
    if bytes < 1 << 20 { return "\(((Double(bytes) / 1024) * 10).rounded() / 10) KiB" }
    return "\(((Double(bytes) / 1_048_576) * 10).rounded() / 10) MiB"
  }

  /// `41 ms`, `3.2 ms`.
  public static func millisecondsText(_ milliseconds: Double) -> String {
    milliseconds >= 10 ? "\(Int(milliseconds.rounded())) ms" : "\((milliseconds * 10).rounded() / 10) ms"
  }

  static func durationText(_ seconds: Double) -> String {
    if seconds < 1 { return millisecondsText(seconds * 1000) }
    if seconds < 120 { return "\((seconds * 10).rounded() / 10) s" }
    return "\(Int((seconds / 60).rounded())) min"
  }

  /// Columns padded to their widest cell (right-aligned where asked), a rule under the header.
  static func table(header: [String], rightAligned: Set<Int>, rows: [[String]]) -> [String] {
    let widths = header.indices.map { column in
      ([header[column]] + rows.map { $0[column] }).map(\.count).max() ?? 0
    }
    func line(_ cells: [String]) -> String {
      cells.enumerated().map { column, cell in
        rightAligned.contains(column) ? cell.padded(widths[column], left: true) : cell.padded(widths[column])
      }.joined(separator: "  ").trimmingTrailingSpaces
    }
    return [line(header), line(widths.map { String(repeating: "-", count: $0) })] + rows.map(line)
  }
}

extension String {
  /// Padded with spaces to `width` characters, on the right (or the left).
  func padded(_ width: Int, left: Bool = false) -> String {
    let padding = String(repeating: " ", count: max(0, width - count))
    return left ? padding + self : self + padding
  }

  var trimmingTrailingSpaces: String {
    var text = self
    while text.last == " " { text.removeLast() }
    return text
  }
}
