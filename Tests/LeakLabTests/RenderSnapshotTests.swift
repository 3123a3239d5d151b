import LeakLabTerminal
import LeakLabTestSupport
import Scenarios
import Testing
import TextGrid

@testable import LeakLab

/// Text snapshots of the rendered screen at the minimum size and a large one.
///
/// Re-record with `LEAKLAB_RECORD_SNAPSHOTS=1 swift test --filter LeakLabTests`
/// (the recording run fails on purpose), then review the diff.
@MainActor
@Suite struct RenderSnapshotTests {
  nonisolated static let sizes = [Size(width: 80, height: 24), Size(width: 120, height: 40)]

  func expectSnapshots(_ app: TestApp, named name: String, sourceLocation: SourceLocation = #_sourceLocation)
  {
    for size in Self.sizes {
      expectSnapshot(
        of: render(app.state, size: size), named: "\(name)-\(size.width)x\(size.height)",
        sourceLocation: sourceLocation)
    }
  }

  @Test func start() {
    let app = TestApp()
    expectSnapshots(app, named: "start")
    expectSnapshot(
      of: render(app.state, size: Size(width: 80, height: 24)), named: "start-80x24-styled", styled: true)
  }

  @Test func scenarioOpen() {
    let app = TestApp()
    app.send(.openKeyPressed, .actionKeyPressed(1))
    expectSnapshots(app, named: "scenario-open")
  }

  @Test func alertShown() {
    let app = TestApp()
    app.send(.scenarioSelected(id: "sample-alert"), .openKeyPressed)
    app.advance(.milliseconds(1500))
    app.send(.actionKeyPressed(1))
    expectSnapshots(app, named: "alert-shown")
  }

  @Test func leakDetected() {
    let app = TestApp()
    app.send(.openKeyPressed, .actionKeyPressed(1))
    app.advance(.seconds(2))
    app.send(.closeKeyPressed)
    app.advance(.seconds(4))
    expectSnapshots(app, named: "leak-detected")
    expectSnapshot(
      of: render(app.state, size: Size(width: 80, height: 24)), named: "leak-detected-80x24-styled",
      styled: true)
  }

  @Test func leakResolved() {
    let app = TestApp()
    app.send(.scenarioSelected(id: "sample-delayed"), .openKeyPressed, .actionKeyPressed(1), .closeKeyPressed)
    app.advance(.seconds(1))
    app.advance(.seconds(11))
    expectSnapshots(app, named: "leak-resolved")
  }

  @Test func helpOverlay() {
    let app = TestApp()
    app.send(.helpKeyPressed)
    expectSnapshots(app, named: "help")
  }

  @Test func explainView() {
    let app = TestApp()
    app.send(.openKeyPressed, .actionKeyPressed(1), .closeKeyPressed)
    app.advance(.seconds(1))
    app.send(.explainKeyPressed)
    expectSnapshots(app, named: "explain")
  }

  @Test func terminalTooSmall() {
    // What the terminal layer shows below the app's minimum size, instead of the frame.
    let grid = Terminal.tooSmallFrame(
      size: Size(width: 60, height: 20), minimum: minimumAppSize,
      quitKey: KeyMap.standard.keys(for: .quitKeyPressed).first)
    expectSnapshot(of: grid, named: "too-small-60x20")
  }

  @Test func readmeScreen() {
    let app = TestApp()
    app.send(.openKeyPressed)
    app.advance(.milliseconds(1200))
    app.send(.actionKeyPressed(1))
    app.advance(.milliseconds(2300))
    app.send(.closeKeyPressed)
    app.advance(.seconds(4))
    expectSnapshot(of: render(app.state, size: Size(width: 100, height: 30)), named: "readme-100x30")
  }

  /// The main README's picture: the real catalogue, one second after the leaky closure capture closed.
  @Test func mainReadmeScreen() {
    let app = TestApp(catalogue: Catalogue.all)
    app.advance(.milliseconds(300))
    app.send(.openKeyPressed)
    app.advance(.milliseconds(900))
    app.send(.actionKeyPressed(1))
    app.advance(.milliseconds(400))
    app.send(.closeKeyPressed)
    app.advance(.seconds(1))
    expectSnapshot(of: render(app.state, size: Size(width: 100, height: 30)), named: "main-readme-100x30")
  }

  /// The real catalogue after the alert scenario leaked: the marked (●) code
  /// line in view and the retain paths wrapped at their arrows, at both sizes.
  @Test func realCatalogueLeak() {
    let app = TestApp(catalogue: Catalogue.all)
    app.send(.scenarioSelected(id: "alert-action-capture"), .openKeyPressed, .actionKeyPressed(1))
    app.advance(.milliseconds(500))
    app.send(.actionKeyPressed(2))
    app.advance(.milliseconds(300))
    app.send(.closeKeyPressed)
    app.advance(.seconds(2))
    expectSnapshots(app, named: "real-alert-leak")
  }

  /// The explain view of a long path (the notification observer's) at both sizes: it scrolls.
  @Test func realCatalogueExplain() {
    let app = TestApp(catalogue: Catalogue.all)
    app.send(.scenarioSelected(id: "notification-observer"), .openKeyPressed, .actionKeyPressed(1))
    app.send(.closeKeyPressed)
    app.advance(.seconds(1))
    app.send(.explainKeyPressed)
    expectSnapshots(app, named: "real-observer-explain")
  }

  @Test func renderingNeverCrashesAtAnySize() {
    let app = TestApp()
    app.send(
      .scenarioSelected(id: "sample-alert"), .openKeyPressed, .actionKeyPressed(1), .actionKeyPressed(2))
    app.advance(.seconds(1))
    app.send(.actionKeyPressed(1), .explainKeyPressed)
    var states = [app.state]
    app.send(.helpKeyPressed)
    states.append(app.state)
    for state in states {
      for width in stride(from: 0, through: 130, by: 7) {
        for height in stride(from: 0, through: 45, by: 5) {
          let grid = render(state, size: Size(width: width, height: height))
          #expect(grid.size == Size(width: width, height: height))
        }
      }
    }
  }
}
