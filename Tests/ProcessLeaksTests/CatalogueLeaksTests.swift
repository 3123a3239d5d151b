import LeakLab
import LeakLabTestSupport
import Scenarios
import Testing

/// The catalogue through `LeakLabProbe` under `leaklab leaks`: every retain
/// cycle the in-process explainer finds is found at exit with its culprit
/// reference; what the app's world still holds (a notification center, the
/// main queue's pending work) is not a leak at exit; the weak forms leak nothing.
@Suite(.memoryViewSupported) struct CatalogueLeaksTests {
  /// Scenarios whose strong form leaves a retain cycle nothing reachable
  /// holds, with the culprit: the reference its weak form makes weak
  /// (`label → Type`; a closure capturing only `self` has the object itself
  /// as its context, so the closure's field points at it).
  static let culprits = [
    "closure-capture": "completion → LoadFeedUseCase",
    "strong-delegate": "delegate → CheckoutScreen",
    "alert-action-capture": "captures[1] → AlertController",
    "viper-module": "output → ProfilePresenter",
    "nested-closure": "action → PhotoScreen",
    "lazy-closure-property": "describe (lazy var) → CartScreen",
    "combine-sink": "receiveValue → SearchScreen",
    "child-coordinator": "parentCoordinator → OrdersCoordinator",
    "handler-context": "context → ChannelHandlerContext",
  ]
  static let cycles = culprits.keys.sorted()
  /// Scenarios whose strong form is held by the probe's world (its
  /// notification center and scheduler, kept in a global as an app's are).
  static let heldByTheWorld = ["notification-observer", "delayed-dispatch", "repeating-timer"]
  /// Scenarios whose strong form is held by library code from a true root:
  /// Foundation's run loop (a global table of run loops) and libdispatch's
  /// timer source. Reachable at exit, so not a leak to `leaklab leaks`.
  static let heldByLibraries = ["foundation-timer", "dispatch-source-timer"]
  /// Scenarios whose strong form is held by a global of their own: abandoned
  /// memory, reachable at exit (what `leaklab heap` shows, not `leaklab leaks`).
  static let heldByTheirGlobal = ["abandoned-memory"]
  /// Scenarios whose strong form is no retain cycle of the catalogue's
  /// objects at exit: a `Task` still looping when the probe exits (its
  /// frames hold what it uses, whatever holds the task), and an `unowned`
  /// capture, whose hazard is a crash, not a leak. Only their weak forms are judged.
  static let runningAtExit = ["task-loop", "task-zombie", "unowned-capture"]

  static let probe = builtExecutable(named: "LeakLabProbe")

  @Test func everyScenarioIsInOneOfTheLists() {
    #expect(
      Set(Catalogue.all.map(\.id))
        == Set(
          Self.cycles + Self.heldByTheWorld + Self.heldByLibraries + Self.heldByTheirGlobal
            + Self.runningAtExit))
  }

  @Test(arguments: cycles)
  func theStrongFormsCycleIsFoundWithItsCulpritReference(_ id: String) throws {
    let culprit = try #require(Self.culprits[id])
    let (status, report) = try LeaksCommand.json([Self.probe, id, "--mode", "strong"])
    #expect(status == 1)
    #expect(report.summary.retainCycles >= 1)
    #expect(report.cycleEdges.contains(culprit), "culprit \(culprit) not among \(report.cycleEdges.sorted())")
  }

  @MainActor
  @Test(arguments: cycles)
  func theInProcessExplainerNamesTheSameCulprit(_ id: String) throws {
    let scenario = try #require(Catalogue.scenario(id: id))
    let label = try #require(Self.culprits[id]?.components(separatedBy: " → ").first)
    let paths = ScenarioExplanation(scenario, mode: .strong).leaks.compactMap(\.retainPath)
    #expect(paths.contains { $0.hasPrefix("retain cycle: ") && $0.contains(" \(label)") }, "\(paths)")
  }

  @Test(arguments: heldByTheWorld + heldByLibraries + heldByTheirGlobal)
  func whatTheWorldStillHoldsIsNotALeakAtExit(_ id: String) throws {
    let (_, report) = try LeaksCommand.json([Self.probe, id, "--mode", "strong"])
    #expect(report.objects.filter { Self.isScenarioObject($0) }.map(\.type) == [])
  }

  @Test(arguments: cycles + heldByTheWorld + heldByLibraries + heldByTheirGlobal + runningAtExit)
  func theWeakFormLeaksNothingOfTheScenarios(_ id: String) throws {
    let (_, report) = try LeaksCommand.json([Self.probe, id, "--mode", "weak"])
    #expect(report.objects.filter { Self.isScenarioObject($0) }.map(\.type) == [])
  }

  static func isScenarioObject(_ object: LeaksCommand.Report.Object) -> Bool {
    guard let module = object.qualifiedType?.split(separator: ".").first else { return false }
    return module == "Scenarios" || module == "ScreenKit"
  }
}
