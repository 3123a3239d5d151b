import CMemoryViewTestSupport
import LeakLabTestSupport
import Testing

@testable import RetainGraph

/// Words of a heap block that its owner has not written keep what the block
/// held before: they hold nothing. Each test builds an object over a block
/// whose every word points at a victim.
///
/// In a process of its own: a memory search's answer depends on what else
/// lives in the process.
@Suite(.serialized, .inProcessOfItsOwn("StaleWordsTests")) struct StaleWordsTests {
  final class Captured: Sendable {}
  /// Of an unusual size: its address is unlikely to be a recycled one whose
  /// stale copies linger elsewhere (other threads' stacks, libraries' buffers).
  ///
  /// Each test's victim would take the address the previous test's victim
  /// freed (malloc's per-size cache is last in, first out), and a frame of
  /// the test runner's task may keep that address in a slot it no longer
  /// uses (a fresh clone's suite found the victim "held" by word 130 of the
  /// runner's task frames, 1 run in 3). ``fresh()`` takes the victim past
  /// every recycled block of its size.
  final class Victim {
    var words:
      (Int, Int, Int, Int, Int, Int, Int, Int, Int, Int, Int, Int, Int, Int, Int, Int, Int, Int, Int) =
        (0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0)

    /// The recycled blocks of the victim's size, kept until the process ends.
    nonisolated(unsafe) static var recycled: [Victim] = []

    /// A victim at an address no earlier victim had: the cache of freed
    /// blocks of its size (seven) and then some are taken first.
    static func fresh() -> Victim {
      recycled += (0..<16).map { _ in Victim() }
      return Victim()
    }
  }

  /// A task that waits until cancelled, holding `captured`, in a block whose
  /// unwritten words all point at `victim`.
  static func taskOverStaleWords(capturing captured: Captured, pointingAt victim: Victim) -> Task<Void, Never>
  {
    let probe = Task { withExtendedLifetime(captured) {} }
    let size = mvt_usableSize(unsafeBitCast(probe, to: UnsafeRawPointer.self))
    mvt_leaveStaleWords(size, UInt(bitPattern: Unmanaged.passUnretained(victim).toOpaque()))
    return Task {
      try? await Task.sleep(for: .seconds(3600))
      withExtendedLifetime(captured) {}
    }
  }

  @Test func aTaskHoldsItsClosuresContextAndNotTheStaleWordsOfItsBlock() throws {
    let explainer = RetainExplainer(searchesMemory: false)
    let victim = Victim.fresh()
    let task = Self.taskOverStaleWords(capturing: Captured(), pointingAt: victim)
    defer { task.cancel() }
    let references = explainer.references(of: unsafeBitCast(task, to: AnyObject.self))
    #expect(references.contains { $0.target.kind == .closureContext }, "\(references)")
    #expect(
      !references.contains { $0.target.address == RetainExplainer.address(of: victim) }, "\(references)")
  }

  @Test(.memoryViewSupported) func aTaskIsNotBelievedToHoldWhatItsStaleWordsPointAt() {
    let victim = Victim.fresh()
    let task = Self.taskOverStaleWords(capturing: Captured(), pointingAt: victim)
    defer { task.cancel() }
    let explanation = RetainExplainer().explain(victim)
    #expect(explanation.rootPath == nil, "\(explanation)")
  }

  /// A heap Block is as long as its descriptor says (`Block_copy` allocates
  /// exactly that); the rest of its malloc block is slack.
  @Test(.memoryViewSupported) func aHeapBlocksSlackHoldsNothing() {
    let victim = Victim.fresh()
    let captured = Captured()
    staleWordsBlock = { withExtendedLifetime(captured) {} }
    let size = mvt_usableSize(unsafeBitCast(staleWordsBlock, to: UnsafeRawPointer.self))
    staleWordsBlock = nil
    mvt_leaveStaleWords(size, UInt(bitPattern: Unmanaged.passUnretained(victim).toOpaque()))
    staleWordsBlock = { withExtendedLifetime(captured) {} }
    defer { staleWordsBlock = nil }
    let explanation = RetainExplainer().explain(victim)
    #expect(explanation.rootPath == nil, "\(explanation)")
  }
}

/// A Block a global holds (a root).
nonisolated(unsafe) var staleWordsBlock: (@convention(block) () -> Void)?

@Test(.runsSuitesAlone) func staleWordsTestsPassInAProcessOfTheirOwn() throws {
  try ProcessOfItsOwn.expectPasses("RetainGraphTests.StaleWordsTests")
}
