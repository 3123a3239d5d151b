import CMemoryViewTestSupport
import Dispatch
import Foundation
import LeakLabLocking
import LeakLabTestSupport
import MemoryView
import Testing

@testable import HeapModel
@testable import RetainGraph

/// Paths from true roots, found by reading this process's memory backwards
/// from the object: no roots registered. In a process of its own: which
/// path is cheapest depends on what else lives in the process.
@Suite(.serialized, .memoryViewSupported, .inProcessOfItsOwn("MemoryRootPathTests"))
struct MemoryRootPathTests {
  final class Holder: @unchecked Sendable {
    var held: Held?
    weak var weaklyHeld: Held?
  }

  final class Held: @unchecked Sendable {
    var back: Held?
    var payload = [1, 2, 3]
  }

  let explainer = RetainExplainer()

  @Test func anObjectHeldByAGlobalIsHeldFromThatNamedGlobal() throws {
    let held = Held()
    memoryRootHolder.held = held
    defer { memoryRootHolder.held = nil }
    let explanation = explainer.explain(held)
    let path = try #require(explanation.rootPath, "\(explanation)")
    #expect(explanation.verdict == .heldByRoot(path))
    #expect(path.start.kind == .root)
    #expect(path.start.name == "global memoryRootHolder in LeakLabPackageTests.xctest")
    #expect(path.steps.map(\.label) == ["", "held"])
    #expect(path.steps.first?.isConservative == true)
    #expect(path.steps.last?.isConservative == false)
    #expect(path.description.hasSuffix("Holder → held: Held (strong)"))
  }

  /// An object of an unusual size: its address is unlikely to be a recycled
  /// one whose stale copies linger in other threads' stack slots.
  final class Lonely {
    var words:
      (
        Int, Int, Int, Int, Int, Int, Int, Int, Int, Int, Int, Int, Int, Int, Int, Int, Int, Int, Int, Int,
        Int
      ) =
        (0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0)
  }

  @Test func anObjectOnlyTheCallerHoldsIsNotVisibleAndSaysWhy() {
    let object = Lonely()
    let explanation = explainer.explain(object)
    #expect(explanation.rootPath == nil, "\(explanation)")
    guard case .notVisible = explanation.verdict else {
      Issue.record("expected nothing visible, got \(explanation)")
      return
    }
    let reason = "only the caller's own variables hold it (its stack, or the frames of its task)"
    #expect(explanation.notVisibleReason == reason, "\(explanation)")
  }

  @Test func aWeakReferenceFromAGlobalDoesNotHold() {
    let held = Held()
    memoryRootHolder.weaklyHeld = held
    defer { memoryRootHolder.weaklyHeld = nil }
    let explanation = explainer.explain(held)
    #expect(explanation.rootPath == nil, "\(explanation)")
  }

  @Test func aCycleAlsoHeldFromAGlobalSaysBoth() throws {
    let first = Held()
    let second = Held()
    first.back = second
    second.back = first
    memoryRootHolder.held = first
    defer {
      memoryRootHolder.held = nil
      first.back = nil
    }
    let explanation = explainer.explain(second)
    guard case .cycle(let cycle) = explanation.verdict else {
      Issue.record("expected a cycle, got \(explanation)")
      return
    }
    #expect(cycle.steps.map(\.label) == ["back", "back"])
    let root = try #require(explanation.rootPath)
    #expect(root.start.name.hasPrefix("global memoryRootHolder"))
    #expect(explanation.description.contains("; also held from root: global memoryRootHolder"))
  }

  @Test func anObjectOnlyAnotherThreadsLocalHoldsIsNamedInTheReasonNotBelievedAsARoot() throws {
    let started = DispatchSemaphore(value: 0)
    let finish = DispatchSemaphore(value: 0)
    let handOver = Locked<Held?>(nil)
    let thread = Thread {
      let held = Held()
      handOver.withLock { $0 = held }
      started.signal()
      finish.wait()
      withExtendedLifetime(held) {}
    }
    thread.start()
    started.wait()
    let held = try #require(handOver.withLock { value in value.take() })
    let explanation = explainer.explain(held)
    finish.signal()
    #expect(explanation.rootPath == nil, "\(explanation)")
    #expect(
      explanation.notVisibleReason?.hasPrefix("only a word in the stack of thread ") == true, "\(explanation)"
    )
  }

  @Test func aCObjectThatStartsWithATypeWordHoldsASwiftObjectConservatively() throws {
    let held = Held()
    mvt_holdInTypedStruct(Unmanaged.passRetained(held).toOpaque())
    defer { Unmanaged<Held>.fromOpaque(mvt_releaseTypedStruct()).release() }
    let path = try #require(explainer.explain(held).rootPath)
    #expect(path.start.name == "global mvt_typedStruct in LeakLabPackageTests.xctest")
    #expect(path.steps.count == 2)
    #expect(path.steps[0].target.kind == .mallocBlock)
    #expect(path.steps[0].target.name.hasPrefix("malloc block, "))
    #expect(path.steps[0].target.name.hasSuffix(" B (mvt_structType)"))
    #expect(path.steps[1].label == "word 1")
    #expect(path.steps[1].isConservative)
  }

  /// A word in C memory may be a stale copy of a recycled address: where a
  /// chain of Swift references leads to an equally good root, it is believed
  /// first, even when it is one step longer.
  @Test func aChainOfSwiftReferencesIsBelievedBeforeAWordInCMemory() throws {
    let first = Held()
    let second = Held()
    first.back = second
    memoryRootHolder.held = first
    mvt_holdInTypedStruct(Unmanaged.passRetained(second).toOpaque())
    defer {
      Unmanaged<Held>.fromOpaque(mvt_releaseTypedStruct()).release()
      memoryRootHolder.held = nil
    }
    let path = try #require(explainer.explain(second).rootPath)
    #expect(path.start.name == "global memoryRootHolder in LeakLabPackageTests.xctest", "\(path)")
    #expect(path.steps.map(\.label) == ["", "held", "back"])
  }

  /// A plain C buffer that retained an object holds it: the object's
  /// strong count leaves room for a reference no metadata names.
  @Test func aPlainCBufferThatRetainedAnObjectHoldsIt() throws {
    let held = Held()
    mvt_holdInPlainBuffer(Unmanaged.passRetained(held).toOpaque())
    defer { Unmanaged<Held>.fromOpaque(mvt_releasePlainBuffer()).release() }
    let path = try #require(explainer.explain(held).rootPath)
    #expect(path.start.name == "global mvt_plainBuffer in LeakLabPackageTests.xctest", "\(path)")
    #expect(path.steps.map(\.label) == ["", "word 1"])
    #expect(path.steps.allSatisfy { $0.isConservative })
  }

  /// A word of the Swift runtime's metadata memory that points out of it
  /// is a stale copy (that memory holds metadata, never a program's
  /// buffer): never a step of a path, even when it is the only way from a
  /// global to the object.
  @Test(arguments: [0, 1, 2] as [Int32])
  func aMetadataCachesWordIntoAProgramsBufferIsNoStepOfAPath(variable: Int32) {
    let held = Held()
    mvt_holdBehindCache(variable, Unmanaged.passRetained(held).toOpaque())
    defer { Unmanaged<Held>.fromOpaque(mvt_releaseBehindCache()).release() }
    let explanation = explainer.explain(held)
    #expect(explanation.rootPath == nil, "\(explanation)")
  }

  @Test func aRegisteredRootNamesThePathItStarts() throws {
    let holder = Holder()
    let held = Held()
    holder.held = held
    explainer.registerRoot(holder, name: "the holder")
    defer { explainer.unregisterRoot(holder) }
    let explanation = explainer.explain(held)
    let path = try #require(explanation.rootPath, "\(explanation)")
    #expect(path.start.name == "the holder")
    #expect(path.steps.map(\.label) == ["held"])
  }

  @Test func explainingWhileOtherThreadsAllocateAndFreeEndsWithTheRightAnswer() throws {
    let held = Held()
    memoryRootHolder.held = held
    defer { memoryRootHolder.held = nil }
    mvt_startChurn(2)
    defer { mvt_stopChurn() }
    for _ in 0..<5 {
      let explanation = explainer.explain(held)
      #expect(explanation.rootPath?.start.name.hasPrefix("global memoryRootHolder") == true, "\(explanation)")
    }
  }

  /// A frozen copy taken for an explanation holds none of the explainer's
  /// Remote Mirror contexts (they are freed while the copy is forked),
  /// where a copy taken without that holds them: stale words of their
  /// buffers were read as a Dispatch source's path being cut.
  @Test func theCopyAnExplanationReadsHoldsNoneOfTheExplainersContexts() throws {
    for _ in 0..<3 { _ = explainer.explain(Held()) }
    // The library's C++ objects that no global of the library holds.
    func contexts(_ model: HeapModel) throws -> [String] {
      let images = model.snapshot.images.images
      let library = try #require(images.first { $0.name.hasPrefix("libswiftRemoteMirror") })
      let heap = model.snapshot.heap
      return (0..<model.blockCount).filter { block in
        library.contains(heap.firstWord(of: block))
          && !model.roots(of: block).contains { root in
            if case .global(let image) = root.kind { image == library.name } else { false }
          }
      }.map { "\(heap[$0])" }
    }
    // One model at a time: a model's own context reads its copy.
    do {
      let plain = try HeapModel(snapshot: try ProcessSnapshot.ofFrozenCopy())
      #expect(try !contexts(plain).isEmpty)
    }
    let released = try MemoryRootSearch.model(registered: []).get()
    #expect(try contexts(released).isEmpty)
  }

  /// The explainer's own memory, which never holds what it explains, takes
  /// in the chains a live model's Remote Mirror context links through first
  /// words (the nodes of its hash tables, whose keys' spare words are never
  /// written), however long: cut after three links, a stale word of such a
  /// node was a survivor's path from a root.
  @Test func theExplainersOwnMemoryTakesInAModelsLibraryChainsWhole() throws {
    let reader = try HeapModel(snapshot: try ProcessSnapshot.ofFrozenCopy())
    let model = try HeapModel(snapshot: try ProcessSnapshot.ofFrozenCopy())
    let own = withExtendedLifetime(reader) { MemoryRootSearch.ownMemory(in: model, own: []) }
    let heap = model.snapshot.heap
    var chained = 0
    var leftOut: [String] = []
    for block in own where !model.kind(of: block).isSwiftObject {
      guard let first = model.snapshot.memory.word(at: heap[block].address),
        let next = model.block(containing: first),
        heap[next].address == first, !model.kind(of: next).isSwiftObject,
        model.snapshot.images.image(containing: heap.firstWord(of: next)) == nil
      else { continue }
      chained += 1
      if !own.contains(next) { leftOut.append("\(heap[block]) → \(heap[next]): \(why(block, next))") }
    }
    // What the model says of a link left out, so a failure names its rule.
    func why(_ block: Int, _ next: Int) -> String {
      let wordZero = model.edges(from: block).contains { $0.target == next && $0.word == 0 }
      let globals = model.roots(of: next).filter {
        if case .global = $0.kind { !$0.isInterior } else { false }
      }
      let into = model.edges(into: block).map {
        "\(model.kind(of: $0.source)) \(model.type(of: $0.source).name) \(heap[$0.source]) word \($0.word)"
      }
      return "word-0 edge \(wordZero), held by \(globals.map(\.kind)), block reached from \(into)"
    }
    #expect(chained > 0)
    #expect(leftOut.isEmpty, "links left out: \(leftOut.prefix(5))")
  }

  /// A buffer that holds a copy of an engine's words (its first word the
  /// engine's class) is no engine: the words it points at are the
  /// program's, not the explainer's. Taken for an engine, the buffer's
  /// targets were left out of the chains they start: a 72-byte node in the
  /// explainer's memory, the node it links to not (1 fresh-clone run in 13,
  /// 1 run of this suite in 180; such a copy, 8200 B with 205 targets, was
  /// in 1 run of 25).
  @Test func aCopyOfAnEnginesWordsIsNoEngine() throws {
    let copy = UnsafeMutablePointer<UInt>.allocate(capacity: 1024)
    defer { copy.deallocate() }
    copy.initialize(repeating: 0, count: 1024)
    let first = UnsafeMutablePointer<UInt>.allocate(capacity: 8)
    defer { first.deallocate() }
    first.initialize(repeating: 0, count: 8)
    copy[0] = UInt(bitPattern: unsafeBitCast(ReflectionEngine.self as AnyClass, to: UnsafeRawPointer.self))
    copy[5] = UInt(bitPattern: first)
    let model = try HeapModel(snapshot: try ProcessSnapshot.ofFrozenCopy())
    let own = MemoryRootSearch.ownMemory(in: model, own: [])
    let buffer = try #require(model.block(containing: UInt(bitPattern: copy)))
    let node = try #require(model.block(containing: UInt(bitPattern: first)))
    #expect(model.kind(of: buffer) == .mallocBlock)
    let ownsBuffer = own.contains(buffer)
    let ownsNode = own.contains(node)
    #expect(!ownsBuffer)
    #expect(!ownsNode)
  }
}

let memoryRootHolder = MemoryRootPathTests.Holder()

@Test(.memoryViewSupported, .runsSuitesAlone) func memoryRootPathTestsPassInAProcessOfTheirOwn() throws {
  try ProcessOfItsOwn.expectPasses("RetainGraphTests.MemoryRootPathTests")
}
