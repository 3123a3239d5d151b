import Foundation
import LeakClock
import ScreenKit

/// What scenario code gets injected instead of process-wide singletons.
///
/// Every scenario screen receives the environment it runs in: the main queue
/// (on the app's scheduler, so a test's manual clock drives delayed work and
/// timers) and a notification center of its own (so tests stay isolated).
///
/// ```swift
/// let scheduler = ManualScheduler()
/// let environment = ScenarioEnvironment(scheduler: scheduler)
/// let screen = scenario.makeScreen(mode: .weak, environment: environment)
/// ```
public struct ScenarioEnvironment: @unchecked Sendable {
  /// The main queue, like `DispatchQueue.main`, on the injected scheduler.
  public var mainQueue: MainQueue
  /// The notification center scenario screens observe and post to, like `NotificationCenter.default`.
  ///
  /// `NotificationCenter` is thread-safe; it is not marked `Sendable` on every platform.
  public var notificationCenter: NotificationCenter

  /// Creates an environment from its parts.
  public init(mainQueue: MainQueue, notificationCenter: NotificationCenter = NotificationCenter()) {
    self.mainQueue = mainQueue
    self.notificationCenter = notificationCenter
  }

  /// Creates an environment whose main queue runs on `scheduler`, with a fresh notification center.
  public init(scheduler: any Scheduler) {
    self.init(mainQueue: MainQueue(scheduler: scheduler))
  }
}
