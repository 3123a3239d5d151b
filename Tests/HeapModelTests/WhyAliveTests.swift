import LeakLabTestSupport
import MemoryView
import Testing

@testable import HeapModel

/// What a record the tests keep in a global holds.
final class WhyAliveRecord {
  var number = 7
}

/// A global list of records: a true root, named by its symbol.
nonisolated(unsafe) var whyAliveRecords: [WhyAliveRecord] = []

/// Why one block is alive (`leaklab watch`'s explain view): its path from a
/// global, or its retain cycle, with its strong references accounted for —
/// in a frozen copy of this process, started for this suite alone (in the
/// shared test process, a word that other suites' work left in this
/// process's memory pointed at the cycle's object: a path from an exited
/// thread's storage through Remote Mirror's type references, in 2 runs of 5
/// of the model's suites).
@Suite(.memoryViewSupported, .serialized, .inProcessOfItsOwn("WhyAliveTests")) struct WhyAliveTests {
  final class Connection {
    var handler: Handler?
  }

  final class Handler {
    var connection: Connection?
  }

  static func address(of object: AnyObject) -> UInt {
    UInt(bitPattern: Unmanaged.passUnretained(object).toOpaque())
  }

  @Test func anObjectAGlobalKeepsIsExplainedByItsPathFromTheGlobal() throws {
    whyAliveRecords = [WhyAliveRecord(), WhyAliveRecord()]
    defer { whyAliveRecords = [] }
    let address = Self.address(of: whyAliveRecords[1])
    let model = try HeapModel(snapshot: try ProcessSnapshot.ofFrozenCopy())
    let block = try #require(model.block(containing: address))
    let why = try #require(model.whyAlive(block))
    #expect(why.shape == .rootPath)
    #expect(why.root?.contains("whyAliveRecords") == true)
    #expect(why.nodes.last == "WhyAliveRecord")
    #expect(why.labels.last == "[1]")
    #expect(why.accounting == "1 of 1 strong reference found")
    #expect(why.text.hasSuffix("→ [1]: WhyAliveRecord"))
  }

  @Test func anObjectOnlyACycleKeepsIsExplainedByTheCycle() throws {
    let connection = Connection()
    connection.handler = Handler()
    connection.handler?.connection = connection
    defer { connection.handler = nil }
    let address = Self.address(of: connection)
    try withExtendedLifetime(connection) {
      let model = try HeapModel(snapshot: try ProcessSnapshot.ofFrozenCopy())
      let block = try #require(model.block(containing: address))
      let why = try #require(model.whyAlive(block))
      #expect(why.shape == .cycle)
      #expect(why.root == nil)
      #expect(why.nodes == ["Connection", "Handler"])
      #expect(why.labels == ["handler", "connection"])
      #expect(why.text == "Connection → handler: Handler → connection: Connection (cycle)")
    }
  }
}

@Test(.memoryViewSupported, .runsSuitesAlone) func whyAliveTestsPassInAProcessOfTheirOwn() throws {
  try ProcessOfItsOwn.expectPasses("HeapModelTests.WhyAliveTests")
}
