// swift-format-ignore-file
// Corpus file for LeakLint tests: realistic code, linted, never compiled.
// A SwiftUI view model whose repeating timer is never invalidated.
import Combine
import SwiftUI

@MainActor
final class StopwatchModel: ObservableObject {
  @Published private(set) var elapsed: TimeInterval = 0
  @Published private(set) var laps: [TimeInterval] = []
  private var timer: Timer?
  private var cancellables = Set<AnyCancellable>()

  func start() {
    timer = Timer.scheduledTimer(withTimeInterval: 0.1, repeats: true) { _ in  // leak: repeating-timer
      MainActor.assumeIsolated { self.elapsed += 0.1 }
    }
  }

  func lap() { laps.append(elapsed) }

  func reset() {
    laps.removeAll()
    cancellables.removeAll()
    elapsed = 0
  }
}

struct StopwatchView: View {
  @StateObject private var model = StopwatchModel()

  var body: some View {
    VStack {
      Text(String(format: "%.1f", model.elapsed))
      Button("Lap") { model.lap() }
      Button("Reset") { model.reset() }
    }
    .onAppear { model.start() }
  }
}
