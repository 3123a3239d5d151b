import Foundation
import LeakLabTestSupport
import ProcessLeaks
import Testing

/// The environment `leaklab leaks`, `heap` and `watch` give the program they
/// start: glibc's huge page hint added to `GLIBC_TUNABLES`, a value the
/// program's environment already sets kept.
struct ProgramEnvironmentTests {
  @Test func theHintIsAddedToTheTunablesGivenAndNeverReplacesOne() {
    #expect(ProgramEnvironment.withHugePages(nil) == "glibc.malloc.hugetlb=1")
    #expect(ProgramEnvironment.withHugePages("") == "glibc.malloc.hugetlb=1")
    #expect(
      ProgramEnvironment.withHugePages("glibc.malloc.tcache_count=0")
        == "glibc.malloc.tcache_count=0:glibc.malloc.hugetlb=1")
    #expect(
      ProgramEnvironment.withHugePages("glibc.malloc.check=3:glibc.malloc.hugetlb=0")
        == "glibc.malloc.check=3:glibc.malloc.hugetlb=0")
    // Only that tunable's own name counts, not one it is the start of.
    #expect(
      ProgramEnvironment.withHugePages("glibc.malloc.hugetlbx=2")
        == "glibc.malloc.hugetlbx=2:glibc.malloc.hugetlb=1")
  }

  @Test(
    .memoryViewSupported,
    arguments: [
      (nil, "glibc.malloc.hugetlb=1"),
      ("glibc.malloc.perturb=165", "glibc.malloc.perturb=165:glibc.malloc.hugetlb=1"),
      ("glibc.malloc.hugetlb=0", "glibc.malloc.hugetlb=0"),
    ] as [(String?, String)])
  func theProgramLeaklabStartsSeesTheHint(given: String?, seen: String) throws {
    // `env` sets leaklab's own environment; `printenv` is the program (not
    // Swift: leaklab refuses to analyse it, after it ran). The program's
    // output goes to standard error: standard output is the report's.
    let run = try LeaksCommand.run(
      (given.map { ["GLIBC_TUNABLES=\($0)"] } ?? ["-u", "GLIBC_TUNABLES"])
        + [LeaksCommand.leaklab, "leaks", "--", "/usr/bin/printenv", "GLIBC_TUNABLES"],
      executable: "/usr/bin/env")
    #expect(run.error.split(separator: "\n").first == Substring(seen))
    #expect(run.status == 2)
  }
}
