import CMemoryViewTestSupport
import CRemoteMirror
import Glibc
import LeakLabTestSupport
import MemoryView
import Testing

@testable import HeapModel

/// How the heap model reads Swift objects: exactly where metadata describes
/// them, never a word where no reference can be. Each test asks about the
/// edges of objects it made, in a frozen copy of this process.
@Suite(.memoryViewSupported) struct SwiftObjectModelTests {
  final class Target {
    var payload = [1, 2, 3]
  }

  final class WeakHolder {
    weak var target: Target?
  }

  /// Of an unusual size: no other block is likely to be one.
  final class Victim {
    var words: (Int, Int, Int, Int, Int, Int, Int, Int, Int, Int, Int, Int, Int, Int, Int, Int, Int) =
      (0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0)
  }

  static func address(of object: AnyObject) -> UInt {
    UInt(bitPattern: Unmanaged.passUnretained(object).toOpaque())
  }

  /// The model of a frozen copy of this process, and the blocks of `objects`.
  static func model(of objects: [AnyObject]) throws -> (HeapModel, [Int]) {
    let model = try HeapModel(snapshot: try ProcessSnapshot.ofFrozenCopy())
    let blocks = try objects.map { object in try #require(model.block(containing: address(of: object))) }
    return (model, blocks)
  }

  @Test func aWeakReferenceHoldsTheSideTableWhoseWayBackHoldsNothing() throws {
    let target = Target()
    let holder = WeakHolder()
    holder.target = target
    try withExtendedLifetime((target, holder)) {
      let (model, blocks) = try Self.model(of: [target, holder])
      let weak = try #require(model.edges(from: blocks[1]).first { $0.kind == .weak })
      #expect(model.kind(of: weak.target) == .sideTable)
      #expect(model.sideTableOwner(of: weak.target) == blocks[0])
      #expect(model.edges(from: weak.target).map(\.kind) == [.back])
      #expect(!model.edges(into: blocks[0]).contains { model.holdsLife($0) && $0.source == weak.target })
    }
  }

  enum Payload {
    case first(Target)
    case second(Target)
  }

  @Test func anEnumPayloadWithItsTagInThePointersTopBitsIsAStrongReference() throws {
    let holder: [Payload] = [.first(Target()), .second(Target())]
    try withExtendedLifetime(holder) {
      let storage = holder.withUnsafeBufferPointer { UInt(bitPattern: $0.baseAddress!) }
      let tagged = try #require(ProcessMemory.current.word(at: storage + 8))
      #expect(tagged >> 56 != 0)
      let model = try HeapModel(snapshot: try ProcessSnapshot.ofFrozenCopy())
      let storageBlock = try #require(model.block(containing: storage))
      let target = try #require(model.block(containing: tagged & 0x00FF_FFFF_FFFF_FFFF))
      #expect(model.kind(of: storageBlock) == .arrayStorage)
      #expect(model.edges(from: storageBlock).contains { $0.target == target && $0.kind == .strong })
      #expect(model.labels(ofEdgesFrom: storageBlock).values.map(\.text).sorted() == ["[0]", "[1]"])
    }
  }

  final class Flagged {
    var isOpen = true
    var other: Target?
  }

  @Test func aBoolsPaddingIsNoReference() throws {
    // The block the object gets held pointers into a victim before: the
    // padding after its Bool keeps seven of their eight bytes.
    let victim = mvt_makeUnreferenced(4096) ^ UInt(MVT_MASK)
    defer { mvt_freeMasked(victim ^ UInt(MVT_MASK)) }
    mvt_leaveStaleWords(32, victim + 2048)
    let flagged = Flagged()  // 16 bytes of header, the Bool, 7 of padding, a reference: 32 bytes
    let word = try #require(ProcessMemory.current.word(at: Self.address(of: flagged) + 16))
    #expect(word & ~0xFF == (victim + 2048) & ~0xFF)
    try withExtendedLifetime(flagged) {
      let (model, blocks) = try Self.model(of: [flagged])
      let victimBlock = try #require(model.block(containing: victim))
      #expect(model.block(containing: word) == victimBlock)
      #expect(model.edges(from: blocks[0]).isEmpty)
    }
  }

  final class Keeper {
    var victims: [Victim] = []
    var table: [Int: Victim] = [:]
  }

  @Test func anArraysStoragePastItsCountHoldsNothing() throws {
    let keeper = Keeper()
    let removed = Victim()
    keeper.victims = [Victim(), Victim(), removed]
    keeper.victims.removeLast()  // the storage keeps its capacity and the removed element's word
    let storage = keeper.victims.withUnsafeBufferPointer { UInt(bitPattern: $0.baseAddress!) }
    #expect(ProcessMemory.current.word(at: storage + 16) == Self.address(of: removed))
    try withExtendedLifetime((keeper, removed)) {
      let (model, blocks) = try Self.model(of: [removed])
      let storageBlock = try #require(model.block(containing: storage))
      #expect(model.edges(from: storageBlock).count == 2)
      #expect(!model.edges(from: storageBlock).contains { $0.target == blocks[0] })
    }
  }

  @Test func aDictionarysEmptyBucketsHoldNothing() throws {
    let keeper = Keeper()
    let removed = Victim()
    for key in 0..<6 { keeper.table[key] = Victim() }
    keeper.table[99] = removed
    keeper.table[99] = nil  // the bucket is empty again; its value's word stays
    try withExtendedLifetime((keeper, removed)) {
      let (model, blocks) = try Self.model(of: [keeper, removed])
      let storage = try #require(
        model.edges(from: blocks[0]).map(\.target).first { model.kind(of: $0) == .dictionaryStorage })
      #expect(model.edges(from: storage).count == 6)
      #expect(!model.edges(from: storage).contains { $0.target == blocks[1] })
    }
  }

  final class Named {
    var name = String(repeating: "n", count: 40)
    var buffer = UnsafeMutableRawPointer.allocate(byteCount: 48, alignment: 8)
    deinit { buffer.deallocate() }
  }

  @Test func aStringsStorageIsAStrongReferenceAndARawPointerHoldsItsBuffer() throws {
    let named = Named()
    try withExtendedLifetime(named) {
      let (model, blocks) = try Self.model(of: [named])
      let edges = model.edges(from: blocks[0])
      let labels = model.labels(ofEdgesFrom: blocks[0])
      let string = try #require(edges.first { labels[$0.position]?.text == "name" })
      #expect(string.kind == .strong && model.kind(of: string.target) == .stringStorage)
      let buffer = try #require(edges.first { labels[$0.position]?.text == "buffer" })
      #expect(buffer.kind == .unmanaged && model.kind(of: buffer.target) == .mallocBlock)
      #expect(model.reachableFromRoots().contains(buffer.target))
    }
  }

  /// A string's storage holds one reference at most: its breadcrumbs, in
  /// the word after its capacity. Its spare capacity and the malloc block's
  /// slack past it are never written: they keep what the block held before
  /// (in the app, an explanation's string "held" the leak it explained).
  /// Large storages have spare capacity, small ones slack too.
  @Test(arguments: [(reserved: 200, characters: 40), (reserved: 70, characters: 34)])
  func aStringsStorageHoldsItsBreadcrumbsAndNotTheStaleWordsAroundThem(reserved: Int, characters: Int) throws
  {
    let victim = Victim()
    var text = ""
    text.reserveCapacity(reserved)
    text += String(repeating: "é", count: characters)  // not ASCII: its UTF-16 offsets need breadcrumbs
    #expect(text.utf16.count == characters)
    let start = try #require(text.utf8.withContiguousStorageIfAvailable { UInt(bitPattern: $0.baseAddress!) })
    let storage = start - 32
    let flags = try #require(ProcessMemory.current.word(at: storage + 16))
    #expect(flags >> 63 == 1, "the storage has room for breadcrumbs")
    let breadcrumbsAt = 32 + ((Int(flags & ((1 << 48) - 1)) + 7) & ~7)
    let breadcrumbs = try #require(ProcessMemory.current.word(at: storage + UInt(breadcrumbsAt)))
    // Every word the string never writes points at the victim: past the code
    // units and the nul, and past the breadcrumbs.
    let usable = mvt_usableSize(UnsafeRawPointer(bitPattern: storage))
    let firstUnwritten = (32 + 2 * characters + 1 + 7) & ~7
    let unwritten =
      Array(stride(from: firstUnwritten, to: breadcrumbsAt, by: 8))
      + Array(stride(from: breadcrumbsAt + 8, to: usable, by: 8))
    #expect(!unwritten.isEmpty)
    for offset in unwritten { mvt_writeWord(storage + UInt(offset), Self.address(of: victim)) }
    try withExtendedLifetime((text, victim)) {
      let (model, blocks) = try Self.model(of: [victim])
      let block = try #require(model.block(containing: storage))
      #expect(model.kind(of: block) == .stringStorage)
      let edges = model.edges(from: block)
      #expect(!edges.contains { $0.target == blocks[0] }, "a stale word holds the victim")
      let labels = model.labels(ofEdgesFrom: block)
      #expect(edges.map { "\(labels[$0.position]?.text ?? "?") \($0.kind)" } == ["breadcrumbs strong"])
      #expect(edges.first.map { model.block(containing: breadcrumbs) == $0.target } == true)
    }
  }

  /// The strong count says how many strong references exist: when the exact
  /// ones account for all, a word of C memory that points at the object is
  /// stale and holds nothing.
  @Test func aStaleWordInCMemoryCannotHoldAnObjectItsCountAccountsFor() throws {
    let keeper = Keeper()
    keeper.victims = [Victim()]  // held by the array alone
    let victim = Self.address(of: keeper.victims[0])
    let stale = mvt_makeUnreferenced(256)
    defer { mvt_freeMasked(stale) }
    mvt_writeWord(stale ^ UInt(MVT_MASK), victim)
    try withExtendedLifetime(keeper) {
      let model = try HeapModel(snapshot: try ProcessSnapshot.ofFrozenCopy())
      let block = try #require(model.block(containing: victim))
      #expect(model.strongCount(of: block) == 1)
      #expect(model.exactStrongReferences(to: block) == 1)
      #expect(model.uncountedReferences(to: block) == 0)
      let staleBlock = try #require(model.block(containing: stale ^ UInt(MVT_MASK)))
      let fromStale = try #require(model.edges(into: block).first { $0.source == staleBlock })
      #expect(fromStale.kind == .conservative)
      #expect(!model.holdsLife(fromStale) && !model.holdsMemory(fromStale))
    }
  }

  /// The account of an object's strong references: those metadata names,
  /// and a word of C memory its count leaves room for; the caller's own
  /// (its stack, registers) are not in it.
  @Test func theAccountSaysHowManyStrongReferencesMetadataFoundAndWhereTheOthersAre() throws {
    let keeper = Keeper()
    keeper.victims = [Victim()]  // one reference metadata names
    let victim = Self.address(of: keeper.victims[0])
    try withExtendedLifetime(keeper) {
      let model = try HeapModel(snapshot: try ProcessSnapshot.ofFrozenCopy())
      let block = try #require(model.block(containing: victim))
      #expect(model.strongReferences(of: block)?.description == "1 of 1 strong reference found")
      mvt_holdInPlainBuffer(Unmanaged.passRetained(keeper.victims[0]).toOpaque())  // one in C memory
      defer { Unmanaged<Victim>.fromOpaque(mvt_releasePlainBuffer()).release() }
      let held = try HeapModel(snapshot: try ProcessSnapshot.ofFrozenCopy())
      let heldBlock = try #require(held.block(containing: victim))
      let account = try #require(held.strongReferences(of: heldBlock))
      #expect(account.count == 2 && account.described == 1 && account.inOtherMemory == 1)
      #expect(
        account.description == "1 of 2 strong references found: one is held from memory no metadata describes"
      )
    }
  }

  /// `AsyncStream`'s storage is allocated with a lock after its fields: it
  /// is a Swift object all the same, its elements and waiters held exactly.
  @Test func anAsyncStreamsStorageIsAnObjectWhoseStateIsReadExactly() throws {
    let (stream, continuation) = AsyncStream.makeStream(of: Int.self)
    for value in 1...3 { continuation.yield(value) }
    let context = unsafeBitCast(stream, to: UInt.self)
    try withExtendedLifetime((stream, continuation)) {
      let model = try HeapModel(snapshot: try ProcessSnapshot.ofFrozenCopy())
      let contextBlock = try #require(model.block(containing: context))
      let storage = try #require(model.edges(from: contextBlock).first { $0.kind == .strong }?.target)
      #expect(model.type(of: storage).qualifiedName == "Swift.AsyncStream<Swift.Int>._Storage<>")
      #expect(model.snapshot.heap[storage].size > 100, "the lock's words after the fields")
      let exact = model.edges(from: storage).filter { $0.kind == .strong }
      #expect(!exact.isEmpty)
    }
  }

  @Test func aClosuresCapturesAreExactAndNamed() throws {
    let target = Target()
    let closure: () -> Int = { target.payload.count + 1 }
    let context = unsafeBitCast(closure, to: (UInt, UInt).self).1
    try withExtendedLifetime((target, closure)) {
      let model = try HeapModel(snapshot: try ProcessSnapshot.ofFrozenCopy())
      let block = try #require(model.block(containing: context))
      let targetBlock = try #require(model.block(containing: Self.address(of: target)))
      #expect(model.kind(of: block) == .closureContext)
      let edge = try #require(model.edges(from: block).first { $0.target == targetBlock })
      #expect(edge.kind == .strong)
      #expect(model.label(of: edge).text == "captures")
    }
  }

  final class Handler {
    var onEvent: () -> Int = { 0 }
    var target: Target?
  }

  /// The common class, whose references all sit at fixed offsets, is read
  /// by the C step (hm_readBlocks): a stored closure holds its context, a
  /// field its target; an object whose counts moved to a side table (it is
  /// weakly referenced) keeps its kind, its count and its edges.
  @Test func aClassOfFixedReferencesHoldsItsClosuresContextAndItsFields() throws {
    let target = Target()
    let holder = WeakHolder()
    holder.target = target
    let handler = Handler()
    handler.target = target
    // Two captures: a closure of one class reference has that object for its context.
    handler.onEvent = { target.payload.count + (holder.target == nil ? 0 : 1) }
    try withExtendedLifetime((target, holder, handler)) {
      let (model, blocks) = try Self.model(of: [target, handler])
      let out = model.edges(from: blocks[1])
      let context = try #require(out.first { model.kind(of: $0.target) == .closureContext })
      #expect(context.kind == .strong)
      #expect(model.edges(from: context.target).contains { $0.target == blocks[0] && $0.kind == .strong })
      #expect(out.contains { $0.target == blocks[0] && $0.kind == .strong })
      #expect(model.kind(of: blocks[0]) == .object)
      #expect(model.strongCount(of: blocks[0]) != nil)
      #expect(
        model.edges(from: blocks[0]).contains {
          $0.kind == .strong && model.kind(of: $0.target) == .arrayStorage
        })
    }
  }

  /// The address of the task running the caller.
  static func currentTask() -> UInt {
    withUnsafeCurrentTask { task in task.map { unsafeBitCast($0, to: UInt.self) } ?? 0 }
  }

  /// Whether the model of a frozen copy taken from a child task of the
  /// caller takes `task`'s object for the caller's own, as a block (its
  /// frames keep the caller's variables), not for a word that points at it.
  static func isCallersOwn(_ task: UInt) throws -> Bool {
    let model = try HeapModel(snapshot: try ProcessSnapshot.ofFrozenCopy())
    let block = try #require(model.block(containing: task))
    return model.isRootBlock(block)
      && model.roots(of: block).contains { $0.kind.isCallerStack && $0.wordAddress == 0 }
  }

  /// A task group's child and an `async let` snapshot from a child task:
  /// the parent's frames, and its parent's, are the caller's own.
  @Test func aChildTasksParentIsTheCallersOwn() async throws {
    let parent = Self.currentTask()
    #expect(parent != 0)
    let inGroup = try await withThrowingTaskGroup(of: Bool.self) { group in
      group.addTask { try Self.isCallersOwn(parent) }
      return try await group.next() ?? false
    }
    #expect(inGroup)
    async let byAsyncLet = Self.isCallersOwn(parent)
    #expect(try await byAsyncLet)
  }

  /// Two levels down: the middle task has a child of its own, which Remote
  /// Mirror cannot describe in a copy (it finds no async task size there),
  /// and its parent comes from its job flags and fragment all the same
  /// (Swift Testing's tree of seven tasks was cut to two).
  @Test func aGrandchildTasksGrandparentIsTheCallersOwn() async throws {
    let grandparent = Self.currentTask()
    #expect(grandparent != 0)
    let found = try await withThrowingTaskGroup(of: Bool.self) { group in
      group.addTask {
        try await withThrowingTaskGroup(of: Bool.self) { inner in
          inner.addTask { try Self.isCallersOwn(grandparent) }
          return try await inner.next() ?? false
        }
      }
      return try await group.next() ?? false
    }
    #expect(found)
  }

  /// What an object walk reports: the words it calls references, at their offsets.
  struct ReferenceRecorder: ReferenceVisitor {
    var found: [(word: UInt, offset: Int)] = []
    mutating func reference(_ word: UInt, at offset: Int, kind: EdgeKind, slot: Slot, context: SlotContext) {
      found.append((word, offset))
    }
    mutating func opaque(from: Int, to: Int, context: SlotContext) {}
  }

  /// A storage read while it changed can say its values begin anywhere in
  /// its block (a fresh-clone run trapped on such a load): an element at an
  /// address that is not word-aligned holds no reference and is not read.
  @Test func aStorageWhoseValuesAreNotWordAlignedHasNoReferenceThere() throws {
    let target = Target()
    let table: [Int: Target] = [7: target]
    let storage = unsafeBitCast(table, to: UInt.self)
    try withExtendedLifetime((target, table)) {
      let snapshot = try ProcessSnapshot.ofFrozenCopy()
      let types = try SwiftTypes(reading: snapshot)
      let layout = try #require(types.layout(ofObjectAt: storage))
      let pointer = try #require(UnsafeMutableRawPointer(bitPattern: storage))
      // The storage ends with its values: one word per bucket.
      let scale = pointer.load(fromByteOffset: Int(SOLHashedScaleOffset), as: Int8.self)
      let values = pointer.load(fromByteOffset: Int(SOLDictionaryValuesOffset), as: UInt.self)
      let size = Int(values - storage) + (8 << scale)
      var bytes = [UInt8](UnsafeRawBufferPointer(start: pointer, count: size))
      func walk() -> [(word: UInt, offset: Int)] {
        var recorder = ReferenceRecorder()
        bytes.withUnsafeBytes { raw in
          _ = ObjectWalk(
            types: types, address: storage, bytes: raw.baseAddress!, size: raw.count, layout: layout
          ).walk(&recorder)
        }
        return recorder.found
      }
      #expect(walk().map(\.word) == [Self.address(of: target)])
      bytes.withUnsafeMutableBytes { raw in
        let values = Int(SOLDictionaryValuesOffset)
        let moved = raw.load(fromByteOffset: values, as: UInt.self) + 3
        raw.storeBytes(of: moved, toByteOffset: values, as: UInt.self)
      }
      #expect(walk().isEmpty)
      withExtendedLifetime(snapshot) {}
    }
  }
}
