// swift-format-ignore-file
// Corpus file for LeakLint tests: realistic code, linted, never compiled.
// The model owns its timer and the view stops it when it disappears.
import SwiftUI

@MainActor
final class WorldClockModel: ObservableObject {
  @Published private(set) var now = Date()
  let zones = ["UTC", "Europe/Paris", "Asia/Tokyo"]
  private var timer: Timer?

  func start() {
    timer = Timer.scheduledTimer(withTimeInterval: 1, repeats: true) { [weak self] _ in
      MainActor.assumeIsolated { self?.tick() }
    }
  }

  func stop() {
    timer?.invalidate()
  }

  func tick() { now = Date() }
}

struct WorldClockView: View {
  @StateObject private var model = WorldClockModel()

  var body: some View {
    List(model.zones, id: \.self) { zone in
      Text(zone)
    }
    .onAppear { model.start() }
    .onDisappear { model.stop() }
  }
}
