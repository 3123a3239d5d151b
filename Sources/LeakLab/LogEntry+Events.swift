import LeakDetector

extension LogEntry {
  /// Log lines for detector events, oldest first.
  ///
  /// A closed screen hands its whole tree to the detector at once; a run of
  /// `expected` events becomes one line: `ClosureScreen (+3 more)`.
  static func entries(for events: [LeakEvent]) -> [LogEntry] {
    var entries: [LogEntry] = []
    var index = 0
    while index < events.count {
      let event = events[index]
      switch event.kind {
      case .expected:
        var end = index + 1
        while end < events.count, events[end].kind == .expected, events[end].time == event.time { end += 1 }
        let more = end - index - 1
        let text = more > 0 ? "\(event.typeName) (+\(more) more)" : event.typeName
        entries.append(LogEntry(time: event.time, kind: .expected, text: text))
        index = end
        continue
      case .detected:
        entries.append(
          LogEntry(
            time: event.time, kind: .detected,
            text: "\(event.name) alive \(TimeFormat.tenths(event.age)) after close"))
      case .resolved:
        entries.append(
          LogEntry(
            time: event.time, kind: .resolved,
            text: "\(event.name) deallocated after \(TimeFormat.tenths(event.age))"))
      case .budgetExceeded:
        entries.append(LogEntry(time: event.time, kind: .budget, text: "\(event.name) over budget"))
      case .budgetCleared:
        entries.append(LogEntry(time: event.time, kind: .budget, text: "\(event.name) within budget"))
      case .checked:
        guard let check = RunCheck(event) else { break }
        entries.append(LogEntry(time: event.time, kind: .checked, text: check.summary))
      }
      index += 1
    }
    return entries
  }
}
