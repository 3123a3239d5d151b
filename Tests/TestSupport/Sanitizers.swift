#if canImport(Glibc)
  import Glibc
#endif

/// Which sanitizer this test process (and the executables built with it) was
/// built with, for the few tests a sanitizer's runtime cannot run under.
///
/// ```swift
/// @Test(.disabled(if: Sanitizers.active != nil, "valgrind cannot run a sanitizer's runtime"))
/// ```
public enum Sanitizers {
  /// `address` or `thread`, or nil in an ordinary build.
  public static let active: String? = {
    let handle = dlopen(nil, RTLD_NOW)
    defer { if let handle { dlclose(handle) } }
    if dlsym(handle, "__asan_init") != nil { return "address" }
    if dlsym(handle, "__tsan_init") != nil { return "thread" }
    return nil
  }()
}
