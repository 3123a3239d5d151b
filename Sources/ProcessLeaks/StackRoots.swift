import MemoryView

/// The part of each thread's stack that holds roots.
///
/// A stopped thread's stack is scanned from its stack pointer (less the
/// 128-byte red zone when it stopped in user code, where a leaf function may
/// keep values; not when it stopped in a system call, where the red zone is
/// left over from earlier calls) up to the end of its mapping, which also
/// holds glibc's thread control block and static TLS.
///
/// One exception, measured on Dispatch's worker threads: a thread *parked*
/// in a library's wait loop — its call stack, unwound from the images' call
/// frame information, runs only libc, libdispatch, dynamic loader or vDSO
/// code — runs none of the program's code, yet its frames keep stale copies
/// of pointers to the last work it ran (2 runs in 20 of the
/// DispatchDataSource fixture kept its leaked cycle "reachable" that way).
/// Those frames are not roots; what lies above the outermost frame (TLS, the
/// thread control block) still is. A frame-by-frame unwind is needed: a scan
/// for code addresses is fooled by stale return addresses in the same frames.
struct StackRoots {
  let map: MemoryMap
  let images: ImageList
  /// Executable mappings of the images whose wait loops park threads.
  private let parkingCode: [Range<UInt>]

  static let parkingImages: Set<String> = ["libc.so.6", "libdispatch.so", "ld-linux-x86-64.so.2", "[vdso]"]

  init(map: MemoryMap, images: ImageList) {
    self.map = map
    self.images = images
    let code = map.regions.filter(\.isExecutable)
    parkingCode = code.filter { region in
      Self.parkingImages.contains(region.path.split(separator: "/").last.map(String.init) ?? region.path)
    }.map(\.range)
  }

  /// The root range of `thread`'s stack mapping, and whether its frames were
  /// left out because it is parked. `frames` is its unwound call stack.
  func roots(of thread: ThreadInfo, stopped: StoppedThread?, frames: [StackFrame]) -> (
    ranges: [Range<UInt>], parked: Bool
  ) {
    guard let mapping = thread.stackMapping else { return ([], false) }
    var low = thread.liveStack?.lowerBound ?? mapping.lowerBound
    if let stopped, let stackPointer = stopped.stackPointer, mapping.contains(stackPointer) {
      low = stopped.isInSystemCall ? stackPointer : max(mapping.lowerBound, stackPointer &- 128)
    }
    low &= ~7
    let whole = [low..<mapping.upperBound]
    // Parked: unwound to its outermost frame, and every frame runs a parking image's code.
    guard frames.count >= 2, frames.allSatisfy({ Self.contains(parkingCode, $0.instruction) }),
      let outermost = frames.last?.stack, mapping.contains(outermost), outermost > low
    else { return (whole, false) }
    return ([outermost..<mapping.upperBound], true)
  }

  /// `roots` with every stopped thread's stack range replaced by its roots
  /// here, and its TLS range kept above its stack pointer (a static TLS size
  /// larger than the real one would reach into the dead part of the stack).
  func rootRanges(
    _ roots: RootSet, threads: ThreadList, process: TracedProcess, stopped: [Int32: StoppedThread]
  ) -> [RootRange] {
    var ranges: [RootRange] = []
    var replaced = Set<Int32>()
    for root in roots.ranges {
      switch root.kind {
      case .stack(let id, _):
        guard let thread = threads.threads.first(where: { $0.id == id }), let registers = stopped[id] else {
          ranges.append(root)
          continue
        }
        if replaced.insert(id).inserted {
          ranges += self.roots(of: thread, stopped: registers, frames: process.callStack(of: id)).ranges.map {
            RootRange(kind: root.kind, range: $0)
          }
        }
      case .threadLocal(let id, _):
        guard id != 0, let low = stopped[id].flatMap(liveLow), root.range.contains(low) else {
          ranges.append(root)
          continue
        }
        ranges.append(RootRange(kind: root.kind, range: low..<root.range.upperBound))
      default:
        ranges.append(root)
      }
    }
    return ranges
  }

  /// The lowest live stack address of a stopped thread (see ``roots(of:stopped:frames:)``).
  private func liveLow(_ stopped: StoppedThread) -> UInt? {
    guard let stackPointer = stopped.stackPointer else { return nil }
    return (stopped.isInSystemCall ? stackPointer : stackPointer &- 128) & ~7
  }

  private static func contains(_ ranges: [Range<UInt>], _ address: UInt) -> Bool {
    ranges.contains { $0.contains(address) }
  }
}
