import Foundation

/// Runs async main-actor work from synchronous code on the main thread, by
/// spinning the main run loop until it finishes.
///
/// A synchronous `main` that blocks the main thread (a terminal app's input
/// loop, a program run under valgrind) drains the main queue itself, which is
/// how a ``LiveScheduler``'s work runs. Inside an `async` main such a loop would
/// itself be main-queue work, and the queue would never drain (measured: a
/// detector's sweeps never ran). Work that needs `await` comes through here.
///
/// ```swift
/// let results = MainRunLoop.run { await CatalogueCheck.run() }
/// ```
public enum MainRunLoop {
  /// Runs `body` on the main actor and returns its result; call from the main thread.
  public static func run<Result: Sendable>(_ body: @escaping @MainActor () async -> Result) -> Result {
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
