import Foundation
import HeapModel
import MemoryView

/// The allocation recorder `--stacks` preloads into a program
/// (`libLeakLabAllocationRecorder.so`, built from `Sources/CAllocationRecorder`),
/// and the table it leaves in the program's memory, read when the program is
/// held at its exit.
///
/// ```swift
/// let process = try TracedProcess.launch([path], stacks: true)   // LD_PRELOAD=…/libLeakLabAllocationRecorder.so
/// …                                                           // held at its exit
/// let model = try process.heapModel()
/// if let stacks = AllocationRecorder.stacks(in: model) { model.attach(stacks) }
/// ```
public enum AllocationRecorder {
  /// The library's file name.
  public static let libraryName = "libLeakLabAllocationRecorder.so"
  /// The record's symbol in the library.
  static let recordSymbol = "leaklab_allocation_record"
  /// `LLSTACK1`, `LLRecordVersion` (AllocationRecord.h).
  static let magic: UInt = 0x314b_4341_5453_4c4c
  static let version: UInt = 1
  static let tag: UInt = 1 << 63

  /// The library: `$LEAKLAB_ALLOCATION_RECORDER`, else the file beside the
  /// running executable (where `swift build` puts it), else in `../lib`
  /// (where `make install` puts it).
  public static func libraryPath() throws(ProcessLeaksError) -> String {
    if let path = ProcessInfo.processInfo.environment["LEAKLAB_ALLOCATION_RECORDER"], !path.isEmpty {
      guard FileManager.default.isReadableFile(atPath: path) else {
        throw .cannotRun(path, reason: "the allocation recorder (LEAKLAB_ALLOCATION_RECORDER) cannot be read")
      }
      return path
    }
    let directory = URL(fileURLWithPath: LeakAnalysis.executable(pid: getpid())).deletingLastPathComponent()
    let beside = directory.appendingPathComponent(libraryName).path
    let installed = directory.deletingLastPathComponent().appendingPathComponent("lib/\(libraryName)").path
    guard let path = [beside, installed].first(where: FileManager.default.isReadableFile(atPath:)) else {
      throw .cannotRun(
        beside,
        reason: "--stacks needs the allocation recorder beside leaklab or in ../lib (swift build builds it)")
    }
    return path
  }

  /// This process's `LD_PRELOAD` with the recorder first.
  public static func preloadList() throws(ProcessLeaksError) -> String {
    let library = try libraryPath()
    let preloaded = ProcessInfo.processInfo.environment["LD_PRELOAD"].map { " " + $0 } ?? ""
    return library + preloaded
  }

  /// The stacks the recorder kept for `model`'s blocks, read from the
  /// stopped process; nil when the recorder is not loaded there or has
  /// recorded nothing.
  public static func stacks(in model: HeapModel) -> AllocationStacks? {
    let snapshot = model.snapshot
    guard let image = snapshot.images.image(named: libraryName),
      let record = image.address(ofSymbol: recordSymbol, kinds: .object)
    else { return nil }
    let memory = snapshot.memory
    let fields = words(memory, at: record, count: 8)
    guard fields.count == 8, fields[0] == magic, fields[1] == version, fields[2] != 0 else { return nil }
    let (tableAddress, stacksAddress, stackCount, framesAddress, frameCount) =
      (fields[2], fields[3], Int(fields[4]), fields[5], Int(fields[6]))
    // The distinct stacks.
    let entries = words(memory, at: stacksAddress, count: stackCount * 2)
    let frames = words(memory, at: framesAddress, count: frameCount)
    guard entries.count == stackCount * 2, frames.count == frameCount else { return nil }
    var stacks: [[UInt]] = []
    stacks.reserveCapacity(stackCount)
    for id in 0..<stackCount {
      let packed = entries[2 * id + 1] & ~tag
      let first = Int(packed & 0xffff_ffff)
      let depth = Int(packed >> 32)
      guard first + depth <= frames.count else {
        stacks.append([])
        continue
      }
      stacks.append(Array(frames[first..<first + depth]))
    }
    // The live blocks.
    let header = words(memory, at: tableAddress, count: 4)
    guard header.count == 4 else { return nil }
    let capacity = Int(header[0] & ~tag)
    let table = words(memory, at: tableAddress + 32, count: capacity * 2)
    guard table.count == capacity * 2 else { return nil }
    var result = AllocationStacks(stacks: stacks, blockCount: model.blockCount)
    for slot in 0..<capacity {
      let inverted = table[2 * slot]
      guard inverted > 1 else { continue }
      let address = ~inverted
      guard let block = model.block(containing: address), model.block(block).address == address else {
        continue
      }
      result.record(stack: Int(table[2 * slot + 1] & ~tag & 0xffff_ffff), of: block)
    }
    return result
  }

  /// The stack that allocated the block at `address` (the address malloc
  /// returned) in a process whose recorder is loaded: its return addresses,
  /// innermost first; nil when the recorder is not there or did not see the
  /// block. One look-up in the recorder's table, read through `memory` (the
  /// process may be running: a table being rebuilt reads as nil).
  ///
  /// ```swift
  /// let images = ImageList.ofThisProcess()!
  /// let frames = AllocationRecorder.stack(ofBlockAt: address, images: images, memory: .current)
  /// ```
  public static func stack(ofBlockAt address: UInt, images: ImageList, memory: ProcessMemory) -> [UInt]? {
    guard let image = images.image(named: libraryName),
      let record = image.address(ofSymbol: recordSymbol, kinds: .object)
    else { return nil }
    let fields = words(memory, at: record, count: 8)
    guard fields.count == 8, fields[0] == magic, fields[1] == version, fields[2] != 0 else { return nil }
    let (tableAddress, stacksAddress, stackCount, framesAddress) = (
      fields[2], fields[3], fields[4], fields[5]
    )
    guard let capacityWord = memory.word(at: tableAddress) else { return nil }
    let capacity = capacityWord & ~tag
    guard capacity > 0, capacity & (capacity - 1) == 0 else { return nil }
    let inverted = ~address
    // The recorder's slot for an address (`ll_blockSlot`), then linear probing.
    var slot = ((address >> 4) &+ (address >> 26) &* 0x9e37_79b1) & (capacity - 1)
    for _ in 0..<capacity {
      let entry = words(memory, at: tableAddress + 32 + slot * 16, count: 2)
      guard entry.count == 2, entry[0] != 0 else { return nil }
      if entry[0] == inverted {
        let id = entry[1] & ~tag & 0xffff_ffff
        guard id < stackCount else { return nil }
        let stack = words(memory, at: stacksAddress + id * 16, count: 2)
        guard stack.count == 2 else { return nil }
        let packed = stack[1] & ~tag
        let (first, depth) = (packed & 0xffff_ffff, Int(packed >> 32))
        let frames = words(memory, at: framesAddress + first * 8, count: depth)
        return frames.count == depth ? frames : nil
      }
      slot = (slot + 1) & (capacity - 1)
    }
    return nil
  }

  /// `count` words at `address` (fewer when the read comes back short).
  static func words(_ memory: ProcessMemory, at address: UInt, count: Int) -> [UInt] {
    guard count > 0 else { return [] }
    var words = [UInt](repeating: 0, count: count)
    var copied = 0
    // Reads are at most 256 MiB each (MemoryReading).
    let chunk = 1 << 24
    words.withUnsafeMutableBytes { buffer in
      while copied < count {
        let length = min(chunk, count - copied)
        let start = buffer.baseAddress! + copied * 8
        let got = memory.read(
          address + UInt(copied * 8), into: UnsafeMutableRawBufferPointer(start: start, count: length * 8))
        copied += got / 8
        if got < length * 8 { break }
      }
    }
    words.removeLast(count - copied)
    return words
  }
}

extension TracedProcess {
  /// Starts `command` (the program, then its arguments) as
  /// ``launch(_:arguments:environment:output:)`` does, in the environment
  /// ``ProgramEnvironment`` gives it (the allocation recorder preloaded when
  /// `stacks` is set): how `leaklab leaks`, `heap` and `watch` start a
  /// program, `--stacks` or not.
  public static func launch(_ command: [String], stacks: Bool, output: ProgramOutput = .inherited)
    throws(ProcessLeaksError) -> TracedProcess
  {
    guard let executable = command.first else { throw .cannotRun("", reason: "no program given") }
    return try launch(
      executable, arguments: Array(command.dropFirst()),
      environment: try ProgramEnvironment.forProgram(stacks: stacks), output: output)
  }
}
