// swift-format-ignore-file
// Corpus file for LeakLint tests: realistic code, linted, never compiled.
// A view's repeating timer that keeps its @StateObject model after the view is gone.
import SwiftUI

@MainActor
final class WorldClockModel: ObservableObject {
  @Published private(set) var now = Date()
  let zones = ["UTC", "Europe/Paris", "Asia/Tokyo"]

  func tick() { now = Date() }
}

struct WorldClockView: View {
  @StateObject private var model = WorldClockModel()

  var body: some View {
    List(model.zones, id: \.self) { zone in
      Text(zone)
    }
    .onAppear {
      Timer.scheduledTimer(withTimeInterval: 1, repeats: true) { _ in  // leak: repeating-timer
        MainActor.assumeIsolated { model.tick() }
      }
    }
  }
}
