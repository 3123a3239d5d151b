import HeapModel
import RetainGraph

extension HeapModel.GrowthPath {
  /// The path as a retain path: the root, then each block by its census name.
  public var retainPath: RetainPath {
    let start = ObjectInfo(address: 0, typeName: "root", name: steps.first ?? "root", kind: .root)
    return RetainPath(
      start: start,
      steps: zip(typeNames.indices, zip(typeNames, hops)).map { index, named in
        Reference(
          label: named.1.label, strength: .strong, isConservative: named.1.isConservative,
          target: ObjectInfo(address: UInt(index + 1), typeName: named.0))
      })
  }

  /// Where to look (``RetainGraph/TraceReading``): the root and long-lived
  /// objects expected alive, the grown type's new instance expected gone
  /// (`why`: its count grew), the references between them the suspects.
  public func reading(grown why: String) -> TraceReading {
    let last = UInt(typeNames.count)
    return TraceReading(rootPath: retainPath) { $0.address == last && $0.kind != .root ? why : nil }
  }
}

extension CensusRun {
  /// Why a grown type's new instance is expected gone: `its count grew by 200`.
  static func grownReason(_ change: CensusDiff.Change) -> String {
    "its count grew by \(change.growth.formatted())"
  }
}
