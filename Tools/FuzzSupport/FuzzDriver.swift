import Foundation

#if canImport(Glibc)
  import Glibc
#endif

/// The entry point shared by LeakLab's fuzz targets.
///
/// Built with `-sanitize=fuzzer -DLEAKLAB_FUZZ` (`make fuzz`), a target is a
/// libFuzzer binary: its arguments are libFuzzer's (`-runs=N`, a corpus
/// folder, …) and every input goes to `body`. Built normally, it replays
/// files instead: each argument is a file, or a folder whose files are read,
/// and each is passed to `body` once — so a crashing input saved by libFuzzer
/// can be rerun in a debugger-friendly build.
///
/// ```swift
/// FuzzDriver.run { bytes in try StepScriptParser.parse(String(decoding: bytes, as: UTF8.self), file: "f") }
/// ```
public enum FuzzDriver {
  /// The body for the input being run (libFuzzer's callback is a C function
  /// pointer and cannot capture it).
  nonisolated(unsafe) static var body: ((UnsafeRawBufferPointer) -> Void)?

  /// Runs `body` on every input: libFuzzer's loop, or a replay of files.
  public static func run(_ body: @escaping (UnsafeRawBufferPointer) -> Void) -> Never {
    self.body = body
    #if LEAKLAB_FUZZ
      exit(runFuzzer())
    #else
      var count = 0
      for path in CommandLine.arguments.dropFirst() {
        for file in files(at: path) {
          guard let data = FileManager.default.contents(atPath: file) else {
            FileHandle.standardError.write(Data("cannot read \(file)\n".utf8))
            exit(2)
          }
          data.withUnsafeBytes { body($0) }
          count += 1
        }
      }
      print("replayed \(count) input(s) without a failure")
      exit(0)
    #endif
  }

  /// libFuzzer's callback: one input.
  static func testOneInput(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    body?(UnsafeRawBufferPointer(start: data, count: size))
    return 0
  }

  private static func files(at path: String) -> [String] {
    var isDirectory: ObjCBool = false
    guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory), isDirectory.boolValue
    else {
      return [path]
    }
    let names = (try? FileManager.default.contentsOfDirectory(atPath: path)) ?? []
    return names.sorted().map { path + "/" + $0 }
  }
}

#if LEAKLAB_FUZZ
  // libFuzzer's `main`, linked by `-sanitize=fuzzer`, calls this symbol; the
  // targets start the loop themselves through `LLVMFuzzerRunDriver`.
  @_cdecl("LLVMFuzzerTestOneInput")
  public func LLVMFuzzerTestOneInput(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    FuzzDriver.testOneInput(data, size)
  }

  /// libFuzzer's loop over its command line (the arguments of this program).
  func runFuzzer() -> CInt {
    var argc = CommandLine.argc
    var argv = CommandLine.unsafeArgv
    return LLVMFuzzerRunDriver(&argc, &argv, LLVMFuzzerTestOneInput)
  }

  @_silgen_name("LLVMFuzzerRunDriver")
  func LLVMFuzzerRunDriver(
    _ argc: UnsafeMutablePointer<CInt>,
    _ argv: UnsafeMutablePointer<UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>>,
    _ callback: @convention(c) (UnsafePointer<UInt8>?, Int) -> CInt
  ) -> CInt
#endif
