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
  /// CPU time of the analysis (user and system): the wall time on an idle machine.
  public var cpuMilliseconds: Double = 0
  /// Memory the analysis itself allocated at its peak (bytes), when measured.
  public var peakMemoryBytes: Int?
  /// What the heap walk could not check (empty when it walked every heap to
  /// its end and read every free list): a leak report is only as sure as this.
  public var heapWalkNotes: [String] = []
  /// Milliseconds of each phase: `snapshot` (maps, images, threads, heap
  /// walk, roots), `mark`, `reflection` (Remote Mirror set up on the
  /// target's images), `naming` (the leaked blocks named and linked).
  public var phases: [String: Double] = [:]
  /// Bytes of the mark's own tables and of the heap's block tables.
  public var markTableBytes = 0
  public var heapTableBytes = 0
  /// Arenas whose free lists were read, and malloc heaps walked.
  public var arenasFound = 0
  public var heapsWalked = 0

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
