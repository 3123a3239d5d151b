import LeakLabTestSupport
import LeakTesting
import Testing

@MainActor
/// In a process of its own: a survivor that no cycle explains is searched
/// for in memory, and that answer depends on what else lives in the process.
@Suite(.inProcessOfItsOwn("RetainGraphAttachmentTests")) struct RetainGraphAttachmentTests {
  @Test("retainPathWithDOT adds the retain graph as DOT, which Graphviz renders, after the path")
  func failureCarriesTheDOT() throws {
    weak var leaked: ClosureHolder?  // weak: only the cycle may keep it alive
    let recorded = RecordedIssues()
    withKnownIssue {
      assertDeallocation(
        of: { ClosureHolder() },
        using: { holder in
          holder.captureSelf()
          leaked = holder
        }, explain: retainPathWithDOT)
    } matching: { issue in
      recorded.append(issue)
      return true
    }
    leaked?.breakCycle()
    let message = try #require(recorded.messages.first)
    let lines = message.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
    #expect(
      lines[0]
        == "ClosureHolder is still alive after it should have deallocated; retained by: retain cycle:"
        + " ClosureHolder → onChange: closure in ClosureHolder.captureSelf() → captures ClosureHolder (strong)"
    )
    #expect(lines[1] == "retain graph (DOT):")
    #expect(lines[2] == #"digraph "ClosureHolder" {"#)
    let dot = lines.dropFirst(2).joined(separator: "\n")
    #expect(
      dot.contains(
        #""ClosureHolder" -> "ClosureHolder" [label="onChange: closure in ClosureHolder.captureSelf() (strong)", color=red"#
      ))
    let svg = try Graphviz.svg(from: dot)
    #expect(svg.contains("ClosureHolder"))
  }

  @Test("retainPathWithDOT adds nothing when no path holds the object")
  func nothingToDraw() {
    let holder = ClosureHolder()
    let recorded = RecordedIssues()
    withKnownIssue {
      assertDeallocation(of: { holder }, explain: retainPathWithDOT)
    } matching: { issue in
      recorded.append(issue)
      return true
    }
    #expect(recorded.messages == ["ClosureHolder is still alive after it should have deallocated"])
  }

  @Test("A LeakTracker given retainPathWithDOT carries the DOT in its failures too")
  func tracker() {
    let tracker = LeakTracker(explain: retainPathWithDOT)
    let holder = ClosureHolder()
    holder.captureSelf()
    tracker.track(holder)
    var result = LeakCheckResult()
    withKnownIssue {
      result = tracker.verify()
    } matching: { _ in
      true
    }
    holder.breakCycle()
    #expect(result.failures.count == 1)
    #expect(result.failures.first?.contains("\nretain graph (DOT):\ndigraph \"ClosureHolder\" {") == true)
  }
}

@Test(.runsSuitesAlone) func retainGraphAttachmentTestsPassInAProcessOfTheirOwn() throws {
  try ProcessOfItsOwn.expectPasses("LeakTestingTests.RetainGraphAttachmentTests")
}
