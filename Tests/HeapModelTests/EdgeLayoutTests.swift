import CMemoryView
import Testing

@testable import HeapModel

/// The C loops read the model's edges and kinds by numbers their header
/// names: the Swift types must give the same numbers.
@Suite struct EdgeLayoutTests {
  @Test func everyEdgeKindHasTheRawValueTheCLoopsRead() {
    let kinds: [EdgeKind: Int] = [
      .strong: MVEdgeStrong, .unowned: MVEdgeUnowned, .weak: MVEdgeWeak, .unmanaged: MVEdgeUnmanaged,
      .conservative: MVEdgeConservative, .back: MVEdgeBack,
    ]
    #expect(kinds.count == EdgeKind.allCases.count)
    for kind in EdgeKind.allCases { #expect(Int(kind.rawValue) == kinds[kind], "\(kind)") }
    // The kind and the admitted bit must fit below the word position.
    #expect(HeapModel.kindMask | HeapModel.admittedBit < 1 << HeapModel.wordShift)
    #expect(EdgeKind.allCases.allSatisfy { UInt32($0.rawValue) & ~HeapModel.kindMask == 0 })
  }

  @Test func theSwiftObjectTableMarksExactlyTheSwiftObjectKinds() {
    #expect(BlockKind.swiftObjectTable.count == 256)
    let marked = (0..<256).filter { BlockKind.swiftObjectTable[$0] == 1 }
    let expected = BlockKind.allCases.filter(\.isSwiftObject).map { Int($0.rawValue) }.sorted()
    #expect(marked == expected)
    #expect(!expected.isEmpty)
  }
}
