import Foundation
import Testing

/// The harness that runs the real binary must never be the thing that hangs.
@Suite struct LeakLabBinaryTests {
  /// 200 kB on stderr before anything on stdout: read one pipe after the
  /// other, the program blocks on a full stderr pipe while the test waits
  /// for stdout's end, forever.
  @Test(.timeLimit(.minutes(1)))
  func aProgramThatFillsStderrFirstStillFinishes() throws {
    let run = try LeakLabBinary.run(
      ["-c", "head -c 200000 /dev/zero | tr '\\0' e >&2; echo done"], executable: "/bin/sh")
    #expect(run.status == 0)
    #expect(run.output == "done\n")
    #expect(run.error.utf8.count == 200_000)
  }
}
