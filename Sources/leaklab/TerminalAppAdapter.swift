import LeakLab
import LeakLabTerminal
import TextGrid

/// Connects the app model to the terminal's run loop: keys in, grids out.
@MainActor
final class TerminalAppAdapter: TerminalApp {
  let model: AppModel

  init(model: AppModel) {
    self.model = model
  }

  func frame(for size: Size) -> Grid {
    model.resize(to: size)
    return model.frame(for: size)
  }

  func handle(_ key: Key) -> LoopDecision {
    model.handle(key)
    return model.state.isQuitRequested ? .quit : .continue
  }

  func tick() -> TickOutcome {
    model.tick() ? .redraw : .unchanged
  }

  func nextTickDelay() -> Duration? {
    model.nextTimeChange()
  }

  func takeTerminalRequests() -> [TerminalRequest] {
    model.takeClipboardRequests().map { .copyToClipboard($0) }
  }
}
