import LeakLabLocking
import RetainGraph

// Hand-built object graphs for the tests. Every test builds its own.

final class Node {
  let id: Int
  var next: Node?
  var others: [Node] = []
  weak var back: Node?
  unowned(unsafe) var unmanaged: Node?

  init(_ id: Int) { self.id = id }
}

/// A chain `nodes[0] → … → nodes[count - 1]`, closed into a cycle when asked.
func makeChain(_ count: Int, closed: Bool) -> [Node] {
  let nodes = (0..<count).map(Node.init)
  for index in 0..<(count - 1) { nodes[index].next = nodes[index + 1] }
  if closed { nodes[count - 1].next = nodes[0] }
  return nodes
}

/// Breaks every strong edge so the nodes can be freed.
func breakCycles(_ nodes: [Node]) {
  for node in nodes {
    node.next = nil
    node.others = []
  }
}

final class AlertAction {
  let title: String
  var handler: (() -> Void)?

  init(title: String, handler: (() -> Void)? = nil) {
    self.title = title
    self.handler = handler
  }
}

final class AlertController {
  var actions: [AlertAction] = []
  var title = "Delete?"
}

final class AlertScreen {
  var presented: AlertController?

  /// The classic leak: the action's handler captures the alert controller.
  func showAlert() -> AlertController {
    let alert = AlertController()
    alert.actions.append(AlertAction(title: "OK") { print(alert.title) })
    presented = alert
    return alert
  }
}

/// Names instances `TypeName#n` in the order first seen, like LeakLab's detector.
final class InstanceNames: Sendable {
  private let names = Locked<[ObjectIdentifier: String]>([:])
  private let counts = Locked<[String: Int]>([:])

  func name(_ object: AnyObject) -> String {
    let identifier = ObjectIdentifier(object)
    if let name = names.withLock({ $0[identifier] }) { return name }
    let type = String(describing: type(of: object))
    let number = counts.withLock { counts in
      counts[type, default: 0] += 1
      return counts[type]!
    }
    let name = "\(type)#\(number)"
    names.withLock { $0[identifier] = name }
    return name
  }
}

// MARK: Closures

final class Helper {}

final class Owner {
  var handler: () -> Void = {}
  var callbacks: [() -> Void] = []
  var count = 0

  func captureSeveral() {
    let first = Helper()
    let second = Helper()
    handler = { _ = (first, second, self) }
  }

  func captureOnlySelf() {
    handler = { self.count += 1 }
  }

  func captureVar() {
    var owner: Owner? = nil
    handler = { owner?.count += 1 }
    owner = self
  }

  func addCallbacks() {
    callbacks.append {}
    callbacks.append { self.count += 1 }
  }
}

// MARK: Values that hold references

protocol Delegate: AnyObject {}
protocol Describable {}

final class Screen: Delegate, Describable, Hashable {
  var model: Model?

  static func == (lhs: Screen, rhs: Screen) -> Bool { lhs === rhs }
  func hash(into hasher: inout Hasher) { hasher.combine(ObjectIdentifier(self)) }
}

enum Loading {
  case idle
  case loading(Screen)
  case failed(code: Int)
}

struct Wrapper {
  var number = 1
  var screen: Screen
}

final class Model {
  var byName: [String: Screen] = [:]
  var members: Set<Screen> = []
  var optional: Screen?
  var delegate: (any Delegate)?
  var anyObject: AnyObject?
  var any: Any = 0
  var describable: (any Describable)?
  var state = Loading.idle
  var wrapped: Wrapper?
  var tuple: (Int, Screen?) = (0, nil)
}

class BaseViewModel {
  var screen: Screen?
}

final class DetailViewModel: BaseViewModel {
  var title = "Detail"
}

final class Strengths {
  var strong: Helper
  weak var weak: Helper?
  unowned var unowned: Helper
  unowned(unsafe) var unmanaged: Helper

  init(_ helper: Helper) {
    strong = helper
    weak = helper
    unowned = helper
    unmanaged = helper
  }
}

// MARK: Roots

/// A scheduler's pending work, like LeakLab's manual scheduler.
final class PendingWork {
  var blocks: [() -> Void] = []

  func schedule(_ block: @escaping () -> Void) { blocks.append(block) }
}

/// A screen that observes notifications (Sendable, as the observer block is `@Sendable`).
final class SettingsScreen: Sendable {}

// MARK: Generic closures

extension Owner {
  /// A closure whose context layout depends on `Value`: the capture of `self`
  /// sits after a `Value`, whose size the context's bindings say.
  func captureAfter<Value>(_ value: Value) {
    handler = { _ = (value, self) }
  }
}
