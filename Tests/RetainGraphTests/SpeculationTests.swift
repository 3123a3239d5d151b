import CRemoteMirror
import LeakLabTestSupport
import Testing

@testable import RetainGraph

/// Describing an object again reads it and what its last describe read next
/// in one system call; what is read ahead is used only when the fresh words
/// lead to exactly those addresses.
///
/// In a process of its own: the plans are process-wide, and another test's
/// describe would take a plan's slot between two describes of one object.
@Suite(.serialized, .inProcessOfItsOwn("SpeculationTests")) struct SpeculationTests {
  let explainer = RetainExplainer(method: .only(.remoteMirror), searchesMemory: false)
  let direct = RetainExplainer(method: .only(.remoteMirrorDirectReads), searchesMemory: false)

  /// `(label, target address, strength)` of each reference, to compare describes.
  func edges(_ references: [Reference]) -> [String] {
    references.map { "\($0.label) → \($0.target.typeName)@\($0.target.address) (\($0.strength))" }
  }

  func address(of object: AnyObject) -> UInt {
    UInt(bitPattern: Unmanaged.passUnretained(object).toOpaque())
  }

  @Test func describingAnObjectAgainTakesOneSystemCall() throws {
    try #require(explainer.method == .remoteMirror)
    let node = Node(0)
    node.next = Node(1)
    node.others = [Node(2), Node(3)]
    let expected = edges(explainer.references(of: node))
    #expect(expected.count == 3)
    let before = rm_systemCallCount()
    let again = edges(explainer.references(of: node))
    #expect(rm_systemCallCount() - before == 1)
    #expect(again == expected)
  }

  @Test func aReplacedArrayIsReadAfresh() {
    let node = Node(0)
    let first = [Node(1), Node(2)]
    node.others = first
    _ = explainer.references(of: node)
    _ = explainer.references(of: node)
    let replacement = [Node(3), Node(4), Node(5)]
    node.others = replacement
    let references = explainer.references(of: node)
    #expect(references.map(\.label) == ["others[0]", "others[1]", "others[2]"])
    #expect(references.map(\.target.address) == replacement.map(address(of:)))
    #expect(edges(references) == edges(direct.references(of: node)))
    // The same storage, changed in place, and a field changed.
    node.others[1] = first[0]
    node.next = first[1]
    let changed = explainer.references(of: node)
    #expect(
      changed.map(\.target.address) == [first[1], replacement[0], first[0], replacement[2]].map(address(of:)))
    // Emptied: no stale element edges.
    node.others = []
    node.next = nil
    #expect(explainer.references(of: node).isEmpty)
    withExtendedLifetime((first, replacement)) {}
  }

  @Test func anObjectFreedAndReplacedAtTheSameAddressHasNoStaleEdges() {
    var reused = 0
    for round in 0..<200 {
      var old: Node? = Node(round)
      old?.others = [Node(1), Node(2)]
      old?.next = Node(3)
      let oldAddress = address(of: old!)
      _ = explainer.references(of: old!)
      _ = explainer.references(of: old!)
      old = nil
      // A new object, possibly at the same address: a node with other
      // contents, or an object of another class.
      if round % 2 == 0 {
        let new = Node(round)
        let target = Node(9)
        new.back = target
        reused += address(of: new) == oldAddress ? 1 : 0
        let references = explainer.references(of: new)
        #expect(references.map(\.label) == ["back"])
        #expect(references.map(\.target.address) == [address(of: target)])
      } else {
        let new = Owner()
        new.captureSeveral()
        reused += address(of: new) == oldAddress ? 1 : 0
        let references = explainer.references(of: new)
        #expect(references.map(\.label) == ["handler"])
        #expect(edges(references) == edges(direct.references(of: new)))
      }
    }
    // The allocator usually hands the freed block back at once; AddressSanitizer
    // never does (freed blocks wait in its quarantine to catch use after free).
    #expect(reused > 0 || Sanitizers.active == "address")
  }

  @Test func speculativeDescribesMatchDirectReadsOnEveryFixture() {
    let model = Model()
    let screen = Screen()
    model.byName = ["a": screen]
    model.members = [screen]
    model.delegate = screen
    model.any = screen
    model.state = .loading(screen)
    model.tuple = (1, screen)
    let owner = Owner()
    owner.captureSeveral()
    owner.addCallbacks()
    let strengths = Strengths(Helper())
    let objects: [AnyObject] = [model, owner, strengths, screen]
    for object in objects {
      let expected = edges(direct.references(of: object))
      for _ in 0..<3 { #expect(edges(explainer.references(of: object)) == expected) }
    }
    model.byName = [:]
    model.state = .idle
    owner.callbacks = []
    for object in objects {
      #expect(edges(explainer.references(of: object)) == edges(direct.references(of: object)))
    }
  }
}

@Test(.runsSuitesAlone) func speculationTestsPassInAProcessOfTheirOwn() throws {
  try ProcessOfItsOwn.expectPasses("RetainGraphTests.SpeculationTests")
}
