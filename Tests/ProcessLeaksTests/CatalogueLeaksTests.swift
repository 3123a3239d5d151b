import LeakLab
import LeakLabTestSupport
import Scenarios
import Testing

/// The catalogue through `LeakLabProbe` under `leaklab leaks`: every retain
/// cycle the in-process explainer finds is found at exit with its culprit
/// reference; what the app's world still holds (a notification center, the
/// main queue's pending work) is not a leak at exit; the weak forms leak nothing.
@Suite struct CatalogueLeaksTests {
  /// Scenarios whose strong form leaves a retain cycle nothing reachable holds.
  static let cycles = [
    "closure-capture", "strong-delegate", "alert-action-capture", "viper-module", "nested-closure",
    "lazy-closure-property",
  ]
  /// Scenarios whose strong form is held by the probe's world (its
  /// notification center and scheduler, kept in a global as an app's are).
  static let heldByTheWorld = ["notification-observer", "delayed-dispatch", "repeating-timer"]
  /// A scenario whose strong form is a `Task` still running when the probe
  /// exits: whether its frame holds the screen at that moment is timing (seen
  /// once in many runs on a loaded machine), so only its weak form is judged.
  static let runningAtExit = ["task-loop"]

  static let probe = builtExecutable(named: "LeakLabProbe")

  @Test func everyScenarioIsInOneOfTheLists() {
    #expect(Set(Catalogue.all.map(\.id)) == Set(Self.cycles + Self.heldByTheWorld + Self.runningAtExit))
  }

  @Test(arguments: cycles)
  func theStrongFormsCycleIsFoundWithItsCulpritReference(_ id: String) async throws {
    let culprit = try #require(await Self.culprit(of: id))
    let (status, report) = try LeaksCommand.json([Self.probe, id, "--mode", "strong"])
    #expect(status == 1)
    #expect(report.summary.retainCycles >= 1)
    #expect(
      culprit.contains { report.cycleEdges.contains($0) },
      "culprit \(culprit) not among the cycle's references \(report.cycleEdges.sorted())")
  }

  @Test(arguments: heldByTheWorld)
  func whatTheWorldStillHoldsIsNotALeakAtExit(_ id: String) throws {
    let (_, report) = try LeaksCommand.json([Self.probe, id, "--mode", "strong"])
    #expect(report.objects.filter { Self.isScenarioObject($0) }.map(\.type) == [])
  }

  @Test(arguments: cycles + heldByTheWorld + runningAtExit)
  func theWeakFormLeaksNothingOfTheScenarios(_ id: String) throws {
    let (_, report) = try LeaksCommand.json([Self.probe, id, "--mode", "weak"])
    #expect(report.objects.filter { Self.isScenarioObject($0) }.map(\.type) == [])
  }

  static func isScenarioObject(_ object: LeaksCommand.Report.Object) -> Bool {
    guard let module = object.qualifiedType?.split(separator: ".").first else { return false }
    return module == "Scenarios" || module == "ScreenKit"
  }

  /// The last reference of the cycle the in-process explainer finds, as
  /// `label → Type` (with the closure's own label too when the closure
  /// captures only the object: its context is then the object itself).
  @MainActor
  static func culprit(of id: String) -> [String]? {
    guard let scenario = Catalogue.scenario(id: id),
      let path = ScenarioExplanation(scenario, mode: .strong).leaks.compactMap(\.retainPath)
        .first(where: { $0.hasPrefix("retain cycle: ") })
    else { return nil }
    let steps = path.replacing(" (strong)", with: "").split(separator: " → ").map(String.init)
    guard let last = steps.last, steps.count >= 2 else { return nil }
    // "delegate: CheckoutScreen#1" or "captures[1] AlertController#1".
    let parts = last.split(whereSeparator: { $0 == ":" || $0 == " " }).map(String.init)
    guard parts.count >= 2, let type = parts.last?.split(separator: "#").first.map(String.init) else {
      return nil
    }
    var culprits = ["\(parts[0]) → \(type)"]
    if parts[0].hasPrefix("captures"), let closure = steps[steps.count - 2].split(separator: ":").first {
      culprits.append("\(closure) → \(type)")
    }
    return culprits
  }
}
