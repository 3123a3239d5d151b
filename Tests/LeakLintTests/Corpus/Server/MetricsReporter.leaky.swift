// swift-format-ignore-file
// Corpus file for LeakLint tests: realistic code, linted, never compiled.
import Dispatch
import Foundation

final class MetricsReporter {
  private let queue = DispatchQueue(label: "metrics")
  private let source: DispatchSourceTimer
  private var counters: [String: Int] = [:]
  private let sink: (String) -> Void

  init(interval: DispatchTimeInterval, sink: @escaping (String) -> Void) {
    self.sink = sink
    source = DispatchSource.makeTimerSource(queue: queue)
    source.schedule(deadline: .now() + interval, repeating: interval)
    source.setEventHandler {  // leak: dispatch-source
      self.flush()
    }
    source.resume()
  }

  func increment(_ name: String) {
    queue.async { self.counters[name, default: 0] += 1 }
  }

  private func flush() {
    let lines = counters.sorted { $0.key < $1.key }.map { "\($0.key) \($0.value)" }
    counters.removeAll()
    lines.forEach(sink)
  }
}
