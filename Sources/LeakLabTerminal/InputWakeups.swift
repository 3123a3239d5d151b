import CNcurses
import Foundation

/// Wakes the terminal's run loop when input arrives: read sources on the main
/// queue for standard input and for the pipe a SIGWINCH writes to.
///
/// A source's handler only notes that something arrived (``isPending``); the
/// loop reads the keys itself, with curses. The note matters when the handler
/// runs while the loop is busy (drawing, running due work): the loop then
/// reads again instead of sleeping with a key unread.
///
/// ```swift
/// let wakeups = InputWakeups(resizeDescriptor: cn_install_resize_wakeup())
/// defer { wakeups.cancel() }
/// wakeups.reset()
/// // … read the keys; sleep in RunLoop.main unless wakeups.isPending
/// ```
@MainActor
final class InputWakeups {
  private var sources: [any DispatchSourceRead] = []
  /// Whether input arrived since the last ``reset()``.
  private(set) var isPending = false

  /// Watches standard input and, when it is not negative, `resizeDescriptor`.
  init(resizeDescriptor: Int32) {
    let input = DispatchSource.makeReadSource(fileDescriptor: STDIN_FILENO, queue: .main)
    input.setEventHandler { [weak self] in
      MainActor.assumeIsolated { self?.isPending = true }
    }
    sources.append(input)
    if resizeDescriptor >= 0 {
      let resize = DispatchSource.makeReadSource(fileDescriptor: resizeDescriptor, queue: .main)
      resize.setEventHandler { [weak self] in
        cn_drain_resize_wakeup()
        MainActor.assumeIsolated { self?.isPending = true }
      }
      sources.append(resize)
    }
    for source in sources { source.resume() }
  }

  /// Forgets the input noted so far: the loop is about to read it.
  func reset() {
    isPending = false
  }

  /// Stops watching.
  func cancel() {
    for source in sources { source.cancel() }
    sources = []
  }
}
