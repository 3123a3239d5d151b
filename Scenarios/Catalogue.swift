/// Every scenario, in a stable order: the five required ones first.
///
/// Each scenario is a static property declared in its own file
/// (`ClosureCapture.swift` declares ``closureCapture``).
///
/// ```swift
/// for scenario in Catalogue.all { print(scenario.id, scenario.title) }
/// let alert = Catalogue.scenario(id: "alert-action-capture")
/// ```
public enum Catalogue {
  /// The catalogue, in display order.
  public static let all: [Scenario] = [
    closureCapture,
    notificationObserver,
    strongDelegate,
    alertActionCapture,
    delayedDispatch,
    viperModule,
    repeatingTimer,
    nestedClosure,
    lazyClosureProperty,
    taskLoop,
    foundationTimer,
    dispatchSourceTimer,
    combineSink,
    childCoordinator,
    taskZombie,
    unownedCapture,
    handlerContext,
    abandonedMemory,
  ]

  /// The scenario with this id, if there is one.
  public static func scenario(id: String) -> Scenario? {
    all.first { $0.id == id }
  }
}
