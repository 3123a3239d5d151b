import ArgumentParser
import Foundation
import LeakClock
import LeakLabTerminal
import Scenarios
import StepScripts

/// `leaklab trap unowned-capture`: the crash the app only reports, for real,
/// in this process: the completion reads an `unowned self` that is gone.
struct Trap: ParsableCommand {
  static let configuration = CommandConfiguration(
    abstract: "Crash on purpose: run a scenario whose leaky form crashes (unowned-capture) until it does.",
    discussion: """
      The app never runs a completion that would crash it: it logs where it would. This command \
      runs the leaky form headless, closes the screen, lets the download complete, and crashes \
      with the Swift runtime's own message, killed by SIGABRT (status 134 in a shell).
      """)

  /// The scenarios whose leaky form crashes, and what to say before it does.
  static let crashing: [String: String] = [
    Catalogue.unownedCapture.id:
      "The screen closed and was freed; the cover arrives in 2 s, and its completion reads `unowned self`…"
  ]

  @Argument(help: "A scenario whose leaky form crashes: unowned-capture.")
  var id: String

  func run() throws {
    guard let scenario = Catalogue.scenario(id: id), let announcement = Self.crashing[id] else {
      let known = Self.crashing.keys.sorted().joined(separator: ", ")
      CommandOutput.error("\(DisplayText.quoted(id)) does not crash; a scenario that does: \(known)")
      throw ExitCode(2)
    }
    CrashReports.makeNonInteractive()
    MainActor.assumeIsolated {
      let scheduler = ManualScheduler()
      let harness = ScenarioHarness(scheduler: scheduler, runsWorkThatTraps: true)
      harness.open(scenario, mode: .strong)
      for step in scenario.script { harness.perform(step) }
      harness.close()
      CommandOutput.line(announcement)
      scheduler.advance(by: .seconds(10))
    }
    CommandOutput.error("\(id) did not crash: the completion found its screen alive")
    throw ExitCode(1)
  }
}
