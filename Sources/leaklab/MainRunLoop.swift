import Foundation

/// Runs async main-actor work from synchronous code on the main thread by
/// spinning the main run loop until it finishes.
///
/// `leaklab`'s root command is synchronous on purpose: the terminal app blocks
/// the main thread in its input loop and drains the main queue itself between
/// key presses. Inside an `async` main that loop would itself be main-queue
/// work, and the queue would never drain (measured: the detector's sweeps never
/// ran). Commands that need `await` (`check`) come through here instead.
///
/// ```swift
/// let results = MainRunLoop.run { await CatalogueCheck.run() }
/// ```
enum MainRunLoop {
  /// Runs `body` on the main actor and returns its result; call from the main thread.
  static func run<Result: Sendable>(_ body: @escaping @MainActor () async -> Result) -> Result {
    precondition(Thread.isMainThread, "MainRunLoop.run must be called on the main thread")
    let box = Box<Result>()
    Task { @MainActor in box.value = await body() }
    while box.value == nil {
      _ = RunLoop.main.run(mode: .default, before: Date(timeIntervalSinceNow: 0.05))
    }
    return box.value!
  }

  private final class Box<Value>: @unchecked Sendable {
    var value: Value?
  }
}
