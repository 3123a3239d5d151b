import Foundation
import LeakClock
import LeakDetector
import ScreenKit
import Testing

@testable import Scenarios

/// A scenario harness on a manual clock: the window, navigation stack and
/// detector every style test drives.
@MainActor
struct Rig {
  let scheduler = ManualScheduler()
  let harness: ScenarioHarness

  init() {
    harness = ScenarioHarness(scheduler: scheduler)
  }

  var label: String { harness.detector.summaryLabel }
  var environment: ScenarioEnvironment { harness.environment }

  /// Opens the scenario, runs its script and closes it, returning the screen
  /// for weak references only (the caller must not keep it strongly).
  func openRunAndClose(_ scenario: Scenario, mode: ScenarioMode) async -> Screen? {
    weak let screen = harness.open(scenario, mode: mode)
    await ScenarioRunner.settle(scheduler)
    for step in scenario.script {
      #expect(harness.perform(step), "step \(step) of \(scenario.id) found nothing to tap")
      await ScenarioRunner.settle(scheduler)
    }
    harness.close()
    await ScenarioRunner.settle(scheduler)
    return screen
  }
}

// MARK: (a) Module teardown: weak references to the parts

/// Weak references to the parts of a module, by name.
@MainActor
final class WeakParts {
  private var entries: [(name: String, reference: WeakReference)] = []

  /// Remembers `object` weakly under `name`.
  func keep(_ name: String, _ object: AnyObject) {
    entries.append((name, WeakReference(object)))
  }

  /// The names of the parts still alive, in the order they were kept.
  var alive: [String] { entries.filter { $0.reference.object != nil }.map(\.name) }
}

final class WeakReference {
  weak var object: AnyObject?
  init(_ object: AnyObject) { self.object = object }
}

// MARK: (b) Assert deallocation: `waitForDeallocation` in LeakLabTestSupport

// MARK: (c) Mirror fixture check

/// The labels of `fixture`'s stored optional properties that still hold a value.
func nonNilProperties(of fixture: AnyObject) -> [String] {
  Mirror(reflecting: fixture).children.compactMap { child in
    guard let label = child.label else { return nil }
    let value = Mirror(reflecting: child.value)
    guard value.displayStyle == .optional else { return nil }
    return value.children.isEmpty ? nil : label
  }
}

// MARK: Screens without a window

/// Taps the button titled `title` in `screen`'s view tree (loading the view).
@MainActor
@discardableResult
func tap(_ title: String, in screen: Screen) -> Bool {
  let button = screen.view.allViews.lazy.compactMap { $0 as? Button }.first { $0.title == title }
  button?.tap()
  return button != nil
}

/// The text of the label with this identifier in `screen`'s view tree.
@MainActor
func labelText(_ identifier: String, in screen: Screen) -> String? {
  screen.view.allViews.lazy.compactMap { $0 as? Label }.first { $0.identifier == identifier }?.text
}
