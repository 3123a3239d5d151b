import Foundation
import LeakLab
import LeakLabTerminal
import StepScripts
import TextGrid

/// Connects the app model to the terminal's run loop: keys in, grids out.
@MainActor
final class TerminalAppAdapter: TerminalApp {
  let model: AppModel
  /// The label log the terminal step driver reads (``LabelLog``), when asked for.
  private let labelLog: FileHandle?
  private var keysHandled = 0
  private var lastLogged: (keys: Int, label: String)?

  init(model: AppModel, environment: [String: String] = ProcessInfo.processInfo.environment) {
    self.model = model
    labelLog = environment[LabelLog.environmentVariable].flatMap { path in
      _ = FileManager.default.createFile(atPath: path, contents: nil)
      return FileHandle(forWritingAtPath: path)
    }
  }

  func frame(for size: Size) -> Grid {
    model.resize(to: size)
    let frame = model.frame(for: size)
    if let labelLog {
      let label = model.state.report.summaryLabel
      if lastLogged?.keys != keysHandled || lastLogged?.label != label {
        labelLog.write(Data(LabelLog.line(keys: keysHandled, label: label).utf8))
        lastLogged = (keysHandled, label)
      }
    }
    return frame
  }

  func handle(_ key: Key) -> LoopDecision {
    model.handle(key)
    switch key {
    case .resize, .mouse: break
    default: keysHandled += 1
    }
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
