import ProcessLeaks
import Testing

/// Which frame of an allocation stack a report names, and how.
@Suite struct AllocationSiteTests {
  static let runtime = SourceFrame(
    address: 0x7f00_0000_1000, function: "swift_allocObject", image: "libswiftCore.so", isProgramCode: false)
  static let allocatingInit = SourceFrame(
    address: 0x5500_0000_1000, function: "Session.__allocating_init()", image: "App", isProgramCode: true,
    isInExecutable: true)

  static func frame(
    _ function: String, line: Int?, file: String = "/src/App/main.swift", program: Bool = true
  )
    -> SourceFrame
  {
    SourceFrame(
      address: 0x5500_0000_2000, function: function, image: "App", file: line == nil ? nil : file, line: line,
      isProgramCode: program, isInExecutable: true)
  }

  @Test func theSiteIsTheFirstProgramFrameWithALineAndItsCallerIsTheNext() {
    let site = AllocationSite(frames: [
      Self.runtime, Self.allocatingInit, Self.frame("makeSession()", line: 42),
      Self.frame("thunk for @escaping @callee_guaranteed () -> ()", line: nil),
      Self.frame("Server.start()", line: 88),
    ])
    #expect(site.programFrame?.function == "makeSession()")
    #expect(site.programCaller?.function == "Server.start()")
    #expect(
      site.summary
        == "allocated in makeSession() at /src/App/main.swift:42, called from Server.start() at /src/App/main.swift:88"
    )
  }

  @Test func withoutDebugInformationTheFirstProgramFunctionIsTheSite() {
    let site = AllocationSite(frames: [
      Self.runtime, Self.allocatingInit, Self.frame("makeSession()", line: nil),
    ])
    #expect(site.programFrame?.function == "makeSession()")
    #expect(site.summary == "allocated in makeSession() in App")
  }

  @Test func aStackOnlyInADependencyIsLibraryCode() {
    let dependency = Self.frame(
      "BaseSocketChannel.init()", line: 561, file: "/src/.build/checkouts/swift-nio/Channel.swift",
      program: false)
    let site = AllocationSite(frames: [Self.runtime, Self.allocatingInit, dependency])
    #expect(site.programFrame == nil)
    #expect(
      site.summary
        == "allocated in BaseSocketChannel.init() at /src/.build/checkouts/swift-nio/Channel.swift:561 (library code)"
    )
  }

  @Test func aMallocBlockIsGroupedByTheFunctionThatCalledTheAllocator() {
    var block = LeakedBlock(address: 0x5500_0001_0000, size: 72, kind: .mallocBlock, typeName: "malloc block")
    block.allocation = AllocationSite(frames: [
      SourceFrame(
        address: 0x7f00_0000_3000, function: "_dispatch_continuation_alloc_from_heap",
        image: "libdispatch.so",
        isProgramCode: false)
    ])
    let report = LeakReport(graph: LeakGraph(blocks: [block], edges: []))
    let kind = "malloc block (from _dispatch_continuation_alloc_from_heap)"
    #expect(report.textLines()[1] == "   1 × \(kind)  [\(LeakKind.id(of: kind))]")
  }
}
