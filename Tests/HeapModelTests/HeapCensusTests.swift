import LeakLabTestSupport
import MemoryView
import Testing

@testable import HeapModel

/// The census of live objects by type, a view of the heap model: counts,
/// names, packed instance addresses, diffs and the path to a new instance.
@Suite struct HeapCensusTests {
  // MARK: Packed addresses

  @Test func addressesPackIntoAboutAByteAndAHalfEachAndComeBackInOrder() {
    let addresses = (0..<1000).map { UInt(0x5555_0000_0000) + UInt($0) * 48 }
    let packed = InstanceAddresses(sorted: addresses)
    #expect(packed.count == 1000)
    #expect(packed.unit == 16)
    #expect(Array(packed) == addresses)
    #expect(packed.bytes.count < 1010)
    #expect(InstanceAddresses(bytes: packed.bytes, unit: 16, count: 1000) == packed)
  }

  @Test func theExampleInTheDocumentationPacksAsItSays() {
    let addresses = InstanceAddresses(sorted: [0x5000_0010, 0x5000_0040])
    #expect(addresses.bytes == [0x81, 0x80, 0x80, 0x28, 0x03])
  }

  @Test func anAddressOffMallocsAlignmentIsPackedInUnitsOfOne() {
    let packed = InstanceAddresses(sorted: [0x1000, 0x1008, 0x2001])
    #expect(packed.unit == 1)
    #expect(Array(packed) == [0x1000, 0x1008, 0x2001])
  }

  @Test func bytesThatDoNotHoldTheCountAreRefused() {
    let packed = InstanceAddresses(sorted: [0x1000, 0x2000])
    #expect(InstanceAddresses(bytes: packed.bytes, unit: 16, count: 3) == nil)
    #expect(InstanceAddresses(bytes: packed.bytes + [0x80], unit: 16, count: 2) == nil)
    #expect(InstanceAddresses(bytes: packed.bytes, unit: 8, count: 2) == nil)
  }

  @Test func newAddressesAreThoseTheEarlierListDoesNotHave() {
    let earlier = InstanceAddresses(sorted: [0x100, 0x200, 0x300])
    let later = InstanceAddresses(sorted: [0x100, 0x250, 0x300, 0x400])
    #expect(later.subtracting(earlier) == [0x250, 0x400])
    #expect(later.countNotIn(earlier) == 2)
    #expect(later.countNotIn(InstanceAddresses()) == 4)
  }

  // MARK: Names

  @Test(arguments: [
    (24, "malloc block 1–32 B"), (40, "malloc block 33–64 B"), (1000, "malloc block 513 B–1 KiB"),
    (1500, "malloc block 1–2 KiB"), (70_000, "malloc block 64–128 KiB"),
    (600_000, "malloc block 512 KiB–1 MiB"),
  ])
  func plainMallocMemoryIsGroupedByPowerOfTwoSizeClass(_ size: Int, _ name: String) {
    #expect(HeapModel.mallocBlockEntry(sizeClass: HeapModel.sizeClass(of: size)).name == name)
  }

  @Test func aClosureContextIsNamedByTheTypesItCaptures() {
    #expect(SwiftTypes.contextCensusName(captures: []) == "closure context")
    #expect(
      SwiftTypes.contextCensusName(captures: ["Feed", "Int"]) == "closure context (captures Feed, Int)")
    #expect(
      SwiftTypes.contextCensusName(captures: ["A", "B", "C", "D", "E"])
        == "closure context (captures A, B, C, +2 more)")
  }

  // MARK: Diffs

  static func entry(_ name: String, count: Int, bytes: Int? = nil, addresses: [UInt]? = nil)
    -> HeapCensus.Entry
  {
    HeapCensus.Entry(
      key: "object App.\(name)", name: name, qualifiedName: "App.\(name)", kind: .object, module: "App",
      isProgramType: true, count: count, bytes: bytes ?? count * 32,
      instances: addresses.map { InstanceAddresses(sorted: $0) } ?? InstanceAddresses())
  }

  @Test func aDiffListsGrownTypesWithTheirNewInstancesAndShrunkAndGoneTypes() {
    let old = HeapCensus(
      entries: [
        Self.entry("Record", count: 3, addresses: [0x100, 0x200, 0x300]),
        Self.entry("Session", count: 4, addresses: [0x1000, 0x1100, 0x1200, 0x1300]),
        Self.entry("Gone", count: 1, addresses: [0x5000]),
      ], blocks: 8, bytes: 256)
    let new = HeapCensus(
      entries: [
        // One freed, three new (one at a freed one's address: not new).
        Self.entry("Record", count: 5, addresses: [0x100, 0x300, 0x400, 0x500, 0x600]),
        Self.entry("Session", count: 2, addresses: [0x1000, 0x1100]),
        Self.entry("Fresh", count: 1, addresses: [0x7000]),
      ], blocks: 8, bytes: 256)
    let diff = CensusDiff(from: old, to: new)
    #expect(diff.grown.map(\.name) == ["Record", "Fresh"])
    #expect(diff.grown.map(\.growth) == [2, 1])
    #expect(diff.grown.map(\.newInstances) == [3, 1])
    #expect(diff.shrunk.map(\.name) == ["Session", "Gone"])
    #expect(diff.shrunk.map(\.growth) == [-2, -1])
    #expect(diff.grown(pastThreshold: 1).map(\.name) == ["Record"])
    #expect(diff.grown(pastThreshold: 2).isEmpty)
  }

  @Test func withoutEarlierAddressesNewInstancesAreUnknown() {
    let old = HeapCensus(entries: [Self.entry("Record", count: 3)], blocks: 3, bytes: 96)
    let new = HeapCensus(
      entries: [Self.entry("Record", count: 4, addresses: [1, 2, 3, 4].map { $0 * 16 })], blocks: 4,
      bytes: 128)
    #expect(CensusDiff(from: old, to: new).grown.first?.newInstances == nil)
  }

  @Test func byBytesTheLargestByteGrowthComesFirst() {
    let old = HeapCensus(
      entries: [Self.entry("Small", count: 1), Self.entry("Large", count: 1)], blocks: 2, bytes: 64)
    let new = HeapCensus(
      entries: [Self.entry("Small", count: 5, bytes: 160), Self.entry("Large", count: 2, bytes: 4096)],
      blocks: 7,
      bytes: 4256)
    #expect(CensusDiff(from: old, to: new).grown.map(\.name) == ["Small", "Large"])
    #expect(CensusDiff(from: old, to: new, order: .bytes).grown.map(\.name) == ["Large", "Small"])
  }
}

/// Censuses of this process (a frozen copy of it): counts of objects the
/// tests made, and the path to the new ones.
@Suite(.memoryViewSupported) struct OwnHeapCensusTests {
  /// Made only here: the census must count exactly these.
  final class CensusProbe {
    var value = 0
  }

  final class GrowthProbe {
    let number: Int
    init(number: Int) { self.number = number }
  }

  /// Kept for good, like an audit trail.
  nonisolated(unsafe) static var keptProbes: [GrowthProbe] = []

  static let probeType = String(reflecting: CensusProbe.self)
  static let growthType = String(reflecting: GrowthProbe.self)

  @Test func theCensusCountsEveryLiveInstanceOfAClassAndTheirBytes() throws {
    let probes = (0..<37).map { _ in CensusProbe() }
    try withExtendedLifetime(probes) {
      let model = try HeapModel(snapshot: try ProcessSnapshot.ofFrozenCopy())
      let census = model.census()
      let entry = try #require(census.entries(qualifiedName: Self.probeType).first)
      #expect(entry.count == 37)
      #expect(entry.name == "CensusProbe")
      #expect(entry.kind == .object)
      let addresses = probes.map { UInt(bitPattern: Unmanaged.passUnretained($0).toOpaque()) }.sorted()
      #expect(Array(entry.instances) == addresses)
      let sizes = addresses.compactMap { model.block(containing: $0).map { Int(model.block($0).size) } }
      #expect(entry.bytes == sizes.reduce(0, +))
      #expect(census.blocks == model.blockCount)
      #expect(census.entries.reduce(0) { $0 + $1.count } == census.blocks)
      #expect(census.entries.reduce(0) { $0 + $1.bytes } == census.bytes)
    }
  }

  @Test func theGrowthPathLeadsFromTheGlobalToANewInstance() throws {
    Self.keptProbes = (0..<5).map { GrowthProbe(number: $0) }
    let before = try HeapModel(snapshot: try ProcessSnapshot.ofFrozenCopy()).census()
    Self.keptProbes += (5..<12).map { GrowthProbe(number: $0) }
    let model = try HeapModel(snapshot: try ProcessSnapshot.ofFrozenCopy())
    let after = model.census()
    let diff = CensusDiff(from: before, to: after)
    let change = try #require(diff.grown.first { $0.qualifiedName == Self.growthType })
    #expect(change.growth == 7)
    #expect(change.newInstances == 7)
    let entry = try #require(after.entry(key: change.key))
    let path = try #require(
      model.growthPath(toNewInstanceOf: entry, since: before.entry(key: change.key)?.instances))
    let new = Set(Self.keptProbes.suffix(7).map { UInt(bitPattern: Unmanaged.passUnretained($0).toOpaque()) })
    #expect(new.contains(path.address))
    #expect(path.isFromLastingRoot)
    #expect(
      path.steps.first?.hasPrefix("global ") == true && path.steps.first?.contains("keptProbes") == true,
      "\(path.steps)")
    #expect(path.steps.last?.hasSuffix(": GrowthProbe") == true, "\(path.steps)")
    Self.keptProbes = []
  }
}

extension HeapCensusTests {
  @Test func freeMemoryMallocCountsAsLiveNeverGrowsOrShrinks() {
    func census(cached: Int, records: Int) -> HeapCensus {
      HeapCensus(
        entries: [
          HeapCensus.Entry(
            key: "cached continuation", name: "dispatch continuation, cached for reuse (free)", kind: .cached,
            count: cached, bytes: cached * 72),
          Self.entry("Record", count: records),
        ], blocks: cached + records, bytes: cached * 72 + records * 32)
    }
    let diff = CensusDiff(from: census(cached: 10, records: 1), to: census(cached: 900, records: 3))
    #expect(diff.grown.map(\.name) == ["Record"])
    #expect(
      CensusDiff(from: census(cached: 900, records: 3), to: census(cached: 10, records: 3)).shrunk.isEmpty)
  }
}
