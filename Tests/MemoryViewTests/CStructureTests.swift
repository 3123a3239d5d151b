import LeakLabTestSupport
import Testing

/// The tests that build C structures in the support target's globals (one
/// list, one chain, one holder thread at a time): run one after another, in
/// a process of their own (a walk of a quiet heap needs a heap no other
/// test allocates in).
@Suite(.serialized, .memoryViewSupported, .inProcessOfItsOwn("CStructureTests")) enum CStructureTests {}

@Test(.runsSuitesAlone) func cStructureTestsPassInAProcessOfTheirOwn() throws {
  try ProcessOfItsOwn.expectPasses("MemoryViewTests.CStructureTests")
}
