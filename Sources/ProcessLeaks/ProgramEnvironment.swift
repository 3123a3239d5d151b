import Foundation

/// The environment `leaklab leaks`, `heap` and `watch` give the program they
/// start: this process's, with the allocation recorder first in `LD_PRELOAD`
/// under `--stacks`, and glibc asked to back the program's malloc heaps with
/// transparent huge pages (``hugePageTunable``).
///
/// Why the hint: the analysis copies the program's heap out of it twice
/// (`process_vm_readv`), and the kernel finds and pins that memory page by
/// page. A heap of 2 MiB pages costs it less than one of 4 KiB pages: at
/// 10⁶ live objects the analysis took 0.85–0.96 of its CPU time where the
/// system gives huge pages only to memory that asks for them (transparent
/// huge pages in `madvise` mode, Debian's and Ubuntu's default). The
/// program's objects and so every answer stay the same. A
/// program whose environment already sets the tunable keeps its own value:
/// `GLIBC_TUNABLES=glibc.malloc.hugetlb=0` turns the hint off.
public enum ProgramEnvironment {
  /// glibc's tunable (2.35 and later; earlier versions ignore it) that makes
  /// malloc advise the kernel to back its heaps with huge pages.
  public static let hugePageTunable = "glibc.malloc.hugetlb"

  /// The environment for a program started with (`stacks`) or without the allocation recorder.
  public static func forProgram(stacks: Bool) throws(ProcessLeaksError) -> [String] {
    var environment = ProcessInfo.processInfo.environment
    if stacks { environment["LD_PRELOAD"] = try AllocationRecorder.preloadList() }
    environment["GLIBC_TUNABLES"] = withHugePages(environment["GLIBC_TUNABLES"])
    return environment.map { "\($0.key)=\($0.value)" }.sorted()
  }

  /// `tunables` (a `GLIBC_TUNABLES` value: `name=value` pairs joined by
  /// colons) with the huge page hint added, unless it sets that tunable already.
  public static func withHugePages(_ tunables: String?) -> String {
    let hint = "\(hugePageTunable)=1"
    guard let tunables, !tunables.isEmpty else { return hint }
    let names = tunables.split(separator: ":").map { $0.prefix { $0 != "=" } }
    return names.contains { $0 == hugePageTunable } ? tunables : tunables + ":" + hint
  }
}
