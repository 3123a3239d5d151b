/// What one analysis looked at and what it cost.
///
/// ```swift
/// print("\(figures.heapBlocks) blocks in \(figures.milliseconds) ms")
/// ```
public struct AnalysisFigures: Sendable, Hashable, Encodable {
  /// Live malloc blocks in the target's heap.
  public var heapBlocks: Int
  /// Their bytes.
  public var heapBytes: Int
  /// Bytes of roots scanned (globals, stacks, thread-local storage, registers).
  public var rootBytes: Int
  /// Wall time of the analysis, from the stop to the named graph.
  public var milliseconds: Double
  /// Memory the analysis itself allocated at its peak (bytes), when measured.
  public var peakMemoryBytes: Int?

  /// Creates figures.
  public init(
    heapBlocks: Int, heapBytes: Int, rootBytes: Int, milliseconds: Double, peakMemoryBytes: Int? = nil
  ) {
    self.heapBlocks = heapBlocks
    self.heapBytes = heapBytes
    self.rootBytes = rootBytes
    self.milliseconds = milliseconds
    self.peakMemoryBytes = peakMemoryBytes
  }
}
