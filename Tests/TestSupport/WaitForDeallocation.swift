import LeakClock
import LeakDetector

/// The published "assert deallocation" style, by hand: moves the manual clock
/// in steps until `isGone()` or `timeout`.
///
/// - Returns: `nil` once gone, else a failure message naming the object.
@MainActor
public func waitForDeallocation(
  of name: String, on scheduler: ManualScheduler, timeout: Duration, step: Duration = .milliseconds(100),
  _ isGone: () -> Bool
) -> String? {
  var waited = Duration.zero
  while !isGone() {
    guard waited < timeout else { return "\(name) was not deallocated within \(timeout.formattedSeconds)" }
    scheduler.advance(by: step)
    waited += step
  }
  return nil
}
