import LeakLabTestSupport
import Testing

/// The tests that build C structures in the support target's globals (one
/// list, one chain, one holder thread at a time): run one after another.
@Suite(.serialized, .memoryViewSupported) enum CStructureTests {}
