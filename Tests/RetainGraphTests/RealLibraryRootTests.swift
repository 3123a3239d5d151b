import Dispatch
import Foundation
import FoundationNetworking
import LeakLabTestSupport
import MemoryView
import Testing

@testable import RetainGraph

/// Leaks whose retainers are Foundation and Dispatch themselves, each in a
/// leaky and a fixed form, explained with no roots registered: the leaky
/// form's path names the real culprit from a true root, the fixed form's
/// object is gone. In a process of its own: which path from a true root is
/// cheapest depends on what other tests left on run loops and queues.
@Suite(.serialized, .memoryViewSupported, .inProcessOfItsOwn("RealLibraryRootTests"))
struct RealLibraryRootTests {
  final class Owner: NSObject, URLSessionDelegate, @unchecked Sendable {
    var timer: Timer?
    var source: (any DispatchSourceTimer)?
    var observer: (any NSObjectProtocol)?
    var handle: FileHandle?
    var session: URLSession?
    var ticks = 0
    let invalidated = DispatchSemaphore(value: 0)

    func tick() { ticks += 1 }

    func urlSession(_ session: URLSession, didBecomeInvalidWithError error: (any Error)?) {
      invalidated.signal()
    }
  }

  /// No time limit: in a full parallel run on a loaded 2-core machine, the
  /// default 2 s ran out before the run loop's path was found (a test of what
  /// is found, not of how fast: `make bench` measures that).
  let explainer = RetainExplainer(limits: SearchLimits(timeLimit: nil))

  /// The path from a true root, with the start and the culprit steps checked.
  private func rootPath(of owner: Owner) throws -> RetainPath {
    let explanation = explainer.explain(owner)
    let path = try #require(explanation.rootPath, "\(explanation)")
    #expect(path.start.kind == .root)
    #expect(!path.start.name.contains("calling thread"))
    #expect(path.description.hasSuffix("Owner (strong)"), "\(path)")
    return path
  }

  // MARK: Timer

  @Test func aRepeatingTimersBlockIsHeldThroughItsRunLoop() throws {
    let owner = Owner()
    owner.timer = Timer.scheduledTimer(withTimeInterval: 100, repeats: true) { _ in owner.tick() }
    defer { owner.timer?.invalidate() }
    let path = try rootPath(of: owner)
    #expect(path.start.name == "global __CFRunLoops in libFoundation.so", "\(path)")
    let names = path.steps.map(\.target.name)
    for step in ["CFRunLoopMode", "CFRunLoopTimer", "Timer"] { #expect(names.contains(step), "\(path)") }
    #expect(path.description.contains("Timer → _fire: closure in"), "\(path)")
  }

  @Test func aTimerWhoseBlockCapturesWeaklyLetsItsOwnerGo() {
    weak var gone: Owner?
    do {
      let owner = Owner()
      gone = owner
      owner.timer = Timer.scheduledTimer(withTimeInterval: 100, repeats: true) { [weak owner] _ in
        owner?.tick()
      }
      owner.timer?.invalidate()
    }
    #expect(gone == nil)
  }

  // MARK: DispatchSourceTimer

  @Test func aDispatchTimersHandlerIsHeldFromDispatchsTimerHeap() throws {
    let owner = Owner()
    let source = DispatchSource.makeTimerSource(queue: .global())
    source.setEventHandler { owner.tick() }
    source.schedule(deadline: .now() + 100, repeating: 100)
    owner.source = source
    source.resume()
    defer {
      source.cancel()
      owner.source = nil
    }
    // Dispatch arms timers in order on its manager queue: once a second
    // timer, armed after this one, has fired, this one is in the timer heap
    // (and no worker thread ran this one's handler). The second is
    // cancelled after the explanation, so that Dispatch's manager thread
    // does not change the timer heap while the snapshot is taken.
    let armed = DispatchSemaphore(value: 0)
    let probe = DispatchSource.makeTimerSource(queue: .global())
    probe.setEventHandler { armed.signal() }
    probe.schedule(deadline: .now())
    probe.resume()
    defer { probe.cancel() }
    armed.wait()
    let path = try rootPath(of: owner)
    #expect(path.start.name.hasPrefix("global _dispatch_timers_heap"), "\(path)")
    #expect(path.steps.last?.target.name == "Owner")
    #expect(path.steps.dropLast().last?.target.name.hasPrefix("Block") == true, "the handler: \(path)")
  }

  @Test func aDispatchTimerWhoseHandlerCapturesWeaklyLetsItsOwnerGo() {
    weak var gone: Owner?
    do {
      let owner = Owner()
      gone = owner
      let source = DispatchSource.makeTimerSource(queue: .global())
      source.setEventHandler { [weak owner] in owner?.tick() }
      source.schedule(deadline: .now() + 100)
      owner.source = source
      source.resume()
      source.cancel()
    }
    #expect(gone == nil)
  }

  // MARK: NotificationCenter

  @Test func aBlockObserverIsHeldFromTheDefaultCenter() throws {
    let owner = Owner()
    owner.observer = NotificationCenter.default.addObserver(
      forName: .init("leaklab.test"), object: nil, queue: nil
    ) {
      _ in owner.tick()
    }
    defer { owner.observer.map(NotificationCenter.default.removeObserver) }
    let path = try rootPath(of: owner)
    #expect(path.start.name == "global _defaultCenter in libFoundationEssentials.so", "\(path)")
    #expect(path.description.contains("closure in NotificationCenter._addObserver"), "\(path)")
  }

  @Test func aBlockObserverThatCapturesWeaklyLetsItsOwnerGo() {
    weak var gone: Owner?
    do {
      let owner = Owner()
      gone = owner
      owner.observer = NotificationCenter.default.addObserver(
        forName: .init("leaklab.test"), object: nil, queue: nil
      ) { [weak owner] _ in owner?.tick() }
      NotificationCenter.default.removeObserver(owner.observer!)
    }
    #expect(gone == nil)
  }

  // MARK: FileHandle

  @Test func aReadabilityHandlerIsACycleAndIsHeldFromDispatchToo() throws {
    let owner = Owner()
    let pipe = Pipe()
    owner.handle = pipe.fileHandleForReading
    pipe.fileHandleForReading.readabilityHandler = { _ in owner.tick() }
    defer { pipe.fileHandleForReading.readabilityHandler = nil }
    // Dispatch installs the handler's source on a worker after the setter
    // returns; until then only that worker holds it, and no root is worth
    // saying (1 run in 40 under `leaklab leaks`).
    try waitUntilDispatchListsAReader(of: pipe.fileHandleForReading.fileDescriptor)
    let explanation = explainer.explain(owner)
    guard case .cycle(let cycle) = explanation.verdict else {
      Issue.record("expected a cycle, got \(explanation)")
      return
    }
    #expect(cycle.steps.map(\.label) == ["handle", "_readabilityHandler"])
    let root = try #require(explanation.rootPath, "\(explanation)")
    #expect(root.start.kind == .root)
    // Through the dispatch source's block to the handler this test set (the
    // setter's wrapping closure is not always named: its symbol lookup can
    // fail while other tests run), and on to the owner.
    #expect(
      root.description.contains(
        "captures closure in RealLibraryRootTests.aReadabilityHandlerIsACycleAndIsHeldFromDispatchToo()"),
      "\(root)")
    #expect(root.description.hasSuffix("captures Owner (strong)"), "\(root)")
    #expect(explanation.description.contains("; also held from root: "))
  }

  @Test func aReadabilityHandlerThatCapturesWeaklyLetsItsOwnerGo() {
    weak var gone: Owner?
    let pipe = Pipe()
    do {
      let owner = Owner()
      gone = owner
      owner.handle = pipe.fileHandleForReading
      pipe.fileHandleForReading.readabilityHandler = { [weak owner] _ in owner?.tick() }
    }
    #expect(gone == nil)
    pipe.fileHandleForReading.readabilityHandler = nil
  }

  // MARK: URLSession

  @Test func aSessionHoldsItsDelegateUntilInvalidated() throws {
    let owner = Owner()
    owner.session = URLSession(configuration: .ephemeral, delegate: owner, delegateQueue: nil)
    defer { owner.session?.invalidateAndCancel() }
    let explanation = explainer.explain(owner)
    guard case .cycle(let cycle) = explanation.verdict else {
      Issue.record("expected a cycle, got \(explanation)")
      return
    }
    #expect(cycle.description == "Owner → session: URLSession → delegate: Owner (strong)")
  }

  @Test func anInvalidatedSessionLetsGoOfItsDelegate() {
    let owner = Owner()
    let session = URLSession(configuration: .ephemeral, delegate: owner, delegateQueue: nil)
    owner.session = session
    session.finishTasksAndInvalidate()
    owner.invalidated.wait()  // the session lets go of its delegate right after this call
    session.delegateQueue.waitUntilAllOperationsAreFinished()
    #expect(session.delegate == nil)
    let explanation = explainer.explain(owner)
    if case .cycle = explanation.verdict { Issue.record("still a cycle: \(explanation)") }
    owner.session = nil
  }

  // MARK: OperationQueue

  @Test func aPendingOperationIsHeldFromItsQueue() throws {
    let owner = Owner()
    pendingWork.addOperation { owner.tick() }
    defer { pendingWork.cancelAllOperations() }
    let path = try rootPath(of: owner)
    #expect(path.start.name == "global pendingWork in LeakLabPackageTests.xctest", "\(path)")
    #expect(path.description.contains("BlockOperation → _block: closure in"), "\(path)")
  }

  @Test func aPendingOperationThatCapturesWeaklyLetsItsOwnerGo() {
    weak var gone: Owner?
    do {
      let owner = Owner()
      gone = owner
      pendingWork.addOperation { [weak owner] in owner?.tick() }
    }
    pendingWork.cancelAllOperations()
    #expect(gone == nil)
  }
}

/// Waits (10 s at most) until libdispatch lists a reader of the file
/// `descriptor` is open on in its table of watched descriptors:
/// `_dispatch_sources`, buckets of muxnotes (each: its list link, its
/// readers' list, its writers', then the descriptor it watches, a 32-bit
/// `dmn_fd` at byte 32). That table is the root the path starts from.
/// Dispatch adds the muxnote to its epoll set first and to the table after
/// (`_dispatch_unote_register_muxed`): the epoll set alone does not say the
/// path is there yet. Foundation hands Dispatch
/// a duplicate of the descriptor, so the file is matched by device and
/// inode. Read through `process_vm_readv`: a muxnote freed meanwhile reads
/// as nothing.
func waitUntilDispatchListsAReader(of descriptor: Int32) throws {
  var file = stat()
  let memory = ProcessMemory.current
  guard fstat(descriptor, &file) == 0, let map = try? MemoryMap(pid: getpid()),
    let image = ImageList(map: map, memory: memory).image(named: "libdispatch.so"),
    let table = image.address(ofSymbol: "_dispatch_sources", kinds: .object),
    let size = image.symbol(containing: table, kinds: .object)?.size, size > 0
  else { throw DispatchNeverWatched(descriptor: descriptor) }
  func isListedReader(_ note: UInt) -> Bool {
    guard let word = memory.word(at: note + 32), memory.word(at: note + 16) ?? 0 != 0 else { return false }
    var watched = stat()
    return fstat(Int32(truncatingIfNeeded: word), &watched) == 0 && watched.st_dev == file.st_dev
      && watched.st_ino == file.st_ino
  }
  let deadline = ContinuousClock.now.advanced(by: .seconds(10))
  while ContinuousClock.now < deadline {
    for bucket in stride(from: table, to: table + size, by: 8) {
      var note = memory.word(at: bucket) ?? 0
      var steps = 0
      while note != 0, steps < 1024 {
        if isListedReader(note) { return }
        note = memory.word(at: note) ?? 0
        steps += 1
      }
    }
    usleep(1000)
  }
  throw DispatchNeverWatched(descriptor: descriptor)
}

struct DispatchNeverWatched: Error, CustomStringConvertible {
  let descriptor: Int32
  var description: String { "libdispatch did not list a reader of descriptor \(descriptor) within 10 s" }
}

/// A queue that never runs its operations (suspended): work waiting on it stays.
let pendingWork: OperationQueue = {
  let queue = OperationQueue()
  queue.isSuspended = true
  return queue
}()

@Test(.memoryViewSupported, .runsSuitesAlone) func realLibraryRootTestsPassInAProcessOfTheirOwn() throws {
  try ProcessOfItsOwn.expectPasses("RetainGraphTests.RealLibraryRootTests")
}
