import RetainGraph
import Testing

/// Where to look on a trace: what is expected of each object, and the suspects.
@Suite struct TraceReadingTests {
  static func object(_ address: UInt, _ type: String, kind: ObjectKind = .object, name: String? = nil)
    -> ObjectInfo
  {
    ObjectInfo(address: address, typeName: type, name: name, kind: kind)
  }

  static func step(_ label: String, to target: ObjectInfo, closure: String? = nil, conservative: Bool = false)
    -> Reference
  {
    Reference(label: label, strength: .strong, isConservative: conservative, closure: closure, target: target)
  }

  static let root = object(0x10, "root", kind: .root, name: "global observers")
  static let center = object(0x20, "NotificationCenter")
  static let storage = object(0x30, "Array storage", kind: .collectionStorage)
  static let closure = object(0x40, "closure", kind: .closureContext)
  static let screen = object(0x50, "ProfileScreen", name: "ProfileScreen#1")
  static let avatar = object(0x60, "AvatarView")

  /// global → NotificationCenter → storage → closure → screen → avatar, the screen closed.
  static let observerPath = RetainPath(
    start: root,
    steps: [
      step("center", to: center), step("observers", to: storage), step("[0]", to: closure),
      step("captures", to: screen), step("avatar", to: avatar),
    ])

  @Test func theReferencesBetweenTheLastObjectExpectedAliveAndTheFirstExpectedGoneAreTheSuspects() {
    let reading = TraceReading(rootPath: Self.observerPath) { $0 == Self.screen ? "closed 1.0 s ago" : nil }
    #expect(
      reading.objects == [
        .alive("a root"), .alive("the notification center lives as long as the process"),
        .unknown, .unknown, .gone("closed 1.0 s ago"),
        .gone("held through ProfileScreen#1, which is expected gone"),
      ])
    #expect(reading.suspects == [1, 2, 3])
  }

  @Test func withNothingExpectedGoneThereIsNoSuspect() {
    let reading = TraceReading(rootPath: Self.observerPath)
    #expect(reading.suspects.isEmpty)
    #expect(reading.objects[2] == .unknown)
  }

  @Test func whatHoldsAnObjectExpectedAliveIsExpectedAliveToo() {
    // global → storage → NotificationCenter → closure → screen.
    let path = RetainPath(
      start: Self.root,
      steps: [
        Self.step("list", to: Self.storage), Self.step("[3]", to: Self.center),
        Self.step("block", to: Self.closure),
        Self.step("captures", to: Self.screen),
      ])
    let reading = TraceReading(rootPath: path) { $0 == Self.screen ? "it leaked" : nil }
    #expect(reading.objects[1] == .alive("it holds NotificationCenter, which is expected alive"))
    #expect(reading.suspects == [2, 3])
  }

  @Test func aWordFoundInCMemoryIsNoSuspectOnAPathFromARoot() {
    let path = RetainPath(
      start: Self.root,
      steps: [
        Self.step("word 3", to: Self.storage, conservative: true), Self.step("[0]", to: Self.closure),
        Self.step("captures", to: Self.screen),
      ])
    let reading = TraceReading(rootPath: path) { $0 == Self.screen ? "it leaked" : nil }
    #expect(reading.suspects == [1, 2])
  }

  @Test func anObjectHeldFromASingletonsGlobalIsExpectedAlive() {
    let shared = Self.object(0x11, "root", kind: .root, name: "global static Session.shared")
    let path = RetainPath(
      start: shared,
      steps: [Self.step("", to: Self.object(0x70, "Session")), Self.step("cache", to: Self.screen)])
    let reading = TraceReading(rootPath: path) { $0 == Self.screen ? "its count only grows" : nil }
    #expect(reading.objects[1] == .alive("a singleton, held from global static Session.shared"))
    #expect(reading.suspects == [1])
  }

  static let handler = object(0x100, "SessionHandler")
  static let context = object(0x200, "ChannelHandlerContext")
  /// SessionHandler → context → SessionHandler: the handler the program's, the context the library's.
  static let handlerCycle = RetainPath(
    start: handler, steps: [step("context", to: context), step("inboundHandler", to: handler)])

  @Test func onACycleTheSuspectIsTheReferenceTheProgramsCodeMadeNotTheLibrarys() {
    let reading = TraceReading(cycle: Self.handlerCycle, isProgramCode: { $0 == Self.handler })
    #expect(
      reading.objects == [
        .gone("on a retain cycle nothing reachable holds"),
        .gone("on a retain cycle nothing reachable holds"),
      ])
    #expect(reading.suspects == [0])
  }

  @Test func onACycleOfUnknownCodeTheSuspectIsTheLastClosureCaptureElseTheReferenceBack() {
    #expect(TraceReading(cycle: Self.handlerCycle).suspects == [1])
    let screen = Self.object(0x300, "Screen")
    let service = Self.object(0x400, "Service")
    let cycle = RetainPath(
      start: screen,
      steps: [
        Self.step("service", to: service),
        Self.step("completion", to: screen, closure: "closure in Screen.load()"),
      ])
    #expect(
      TraceReading(cycle: RetainPath(start: service, steps: [cycle.steps[1], cycle.steps[0]])).suspects == [0]
    )
    #expect(TraceReading(cycle: cycle).suspects == [1])
  }

  @Test func aConservativeWordIsNoSuspectWhileAReferenceTheMetadataDescribesIsOnTheCycle() {
    let task = Self.object(0x500, "Task", kind: .other)
    let cycle = RetainPath(
      start: Self.handler,
      steps: [Self.step("task", to: task), Self.step("word 32", to: Self.handler, conservative: true)])
    #expect(TraceReading(cycle: cycle).suspects == [0])
  }

  @Test func anExplanationSaysWhereToLookBetweenWhatShouldLiveAndWhatShouldBeFreed() {
    let path = RetainPath(
      start: Self.root, steps: [Self.step("center", to: Self.center), Self.step("screen", to: Self.screen)])
    let held = Explanation(
      object: Self.screen, verdict: .heldByRoot(path), method: .remoteMirror, isTruncated: false,
      visitedCount: 3)
    #expect(
      held.whereToLook
        == "look at: screen, between NotificationCenter (expected alive: the notification center lives as long "
        + "as the process) and ProfileScreen#1 (expected gone: it was expected to be freed)")
    let cycle = Explanation(
      object: Self.handler, verdict: .cycle(Self.handlerCycle), method: .remoteMirror, isTruncated: false,
      visitedCount: 2)
    #expect(cycle.whereToLook == "look at: inboundHandler: SessionHandler, the reference to break")
  }
}
