import LeakClock
import LeakDetector
import Testing

/// `checked` events: once the grace delay has passed, what was checked and
/// whether it all deallocated, one event per `expectDeallocation` call.
@MainActor
@Suite struct CheckedEventTests {
  final class Node {
    var children: [Node]
    init(_ children: [Node] = []) { self.children = children }
  }

  func expectTree(_ harness: Harness, _ root: Node) {
    harness.detector.expectDeallocation(ofTree: root) { ($0 as? Node)?.children ?? [] }
  }

  @Test func aTreeThatDeallocatedIsCheckedOnceWithItsSize() {
    let harness = Harness()
    var root: Node? = Node([Node(), Node([Node()])])
    expectTree(harness, root!)
    root = nil
    harness.advance(0.999)
    #expect(!harness.log.kinds.contains(.checked))
    harness.advance(0.001)
    let checks = harness.log.all.filter { $0.kind == .checked }
    #expect(checks.count == 1)
    #expect(checks.first?.check == LeakEvent.Check(objects: 4, alive: 0))
    #expect(checks.first?.name == "Node")
    #expect(checks.first?.age == .seconds(1))
    #expect(checks.first?.message == "checked Node and 3 more 1.0 s after it was expected: all 4 deallocated")
  }

  @Test func aLeakIsCountedAliveAndItsCheckFollowsItsDetection() {
    let harness = Harness()
    let survivor = Node()
    var root: Node? = Node([survivor, Node()])
    expectTree(harness, root!)
    root = nil
    harness.advance(1)
    #expect(harness.log.kinds == [.expected, .expected, .expected, .detected, .checked])
    #expect(harness.log.all.last?.check == LeakEvent.Check(objects: 3, alive: 1))
    #expect(harness.log.all.last?.message.hasSuffix(": 1 of 3 still alive") == true)
    withExtendedLifetime(survivor) {}
  }

  @Test func groupsExpectedAtDifferentTimesAreCheckedSeparately() {
    let harness = Harness()
    var first: Node? = Node()
    let second = Node()
    harness.detector.expectDeallocation(of: first!)
    harness.advance(0.3)
    harness.detector.expectDeallocation(of: second)
    first = nil
    harness.advance(1)
    let checks = harness.log.all.filter { $0.kind == .checked }
    #expect(checks.map(\.check) == [.init(objects: 1, alive: 0), .init(objects: 1, alive: 1)])
    #expect(checks.map(\.time) == [.seconds(1), .milliseconds(1300)])
    withExtendedLifetime(second) {}
  }

  @Test func anIgnoredObjectIsNotCounted() {
    let harness = Harness()
    harness.detector.ignore(typeNamed: "Node")
    let node = Node()
    harness.detector.expectDeallocation(of: node)
    harness.advance(1)
    #expect(harness.log.kinds == [.expected])
    withExtendedLifetime(node) {}
  }

  @Test func checksStayOutOfTheHistory() {
    let harness = Harness()
    harness.detector.expectDeallocation(of: Node())
    harness.advance(1)
    #expect(harness.log.kinds == [.expected, .checked])
    #expect(harness.detector.history.isEmpty)
  }

  @Test func withoutSubscribersNothingIsRecordedPerCall() {
    let scheduler = ManualScheduler()
    let detector = LeakDetector(scheduler: scheduler)
    detector.expectDeallocation(of: Node())
    let log = EventLog()
    detector.subscribe { log.append($0) }
    scheduler.advance(by: .seconds(1))
    // Expected before anyone listened: no group, so no check event.
    #expect(log.kinds.isEmpty)
  }
}
