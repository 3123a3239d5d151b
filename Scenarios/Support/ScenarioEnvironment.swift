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
  /// Where scenario objects report work they do after their screen closed
  /// (a leaked timer's tick): the app's log shows it.
  public var activity: ActivityLog
  /// Whether work that would crash the process (an `unowned` reference to a
  /// freed object) runs: only in `leaklab trap`, a process of its own. Off:
  /// the scenario reports it to ``activity`` instead of crashing the app.
  public var runsWorkThatTraps: Bool

  /// Creates an environment from its parts.
  @MainActor
  public init(
    mainQueue: MainQueue, notificationCenter: NotificationCenter = NotificationCenter(),
    activity: ActivityLog? = nil, runsWorkThatTraps: Bool = false
  ) {
    self.mainQueue = mainQueue
    self.notificationCenter = notificationCenter
    self.activity = activity ?? ActivityLog(scheduler: mainQueue.scheduler)
    self.runsWorkThatTraps = runsWorkThatTraps
  }

  /// Creates an environment whose main queue runs on `scheduler`, with a fresh notification center.
  @MainActor
  public init(scheduler: any Scheduler) {
    self.init(mainQueue: MainQueue(scheduler: scheduler))
  }
}
