import MemoryView
import Testing

extension Trait where Self == ConditionTrait {
  /// Runs a test only where this process's malloc heap can be walked: not
  /// under a sanitizer, whose allocator replaces glibc's (the executables the
  /// test builds and starts are built the same way).
  ///
  /// ```swift
  /// @Suite(.memoryViewSupported) struct HeapTests { … }
  /// ```
  public static var memoryViewSupported: Self {
    .enabled(
      if: ProcessSnapshot.ownHeapUnsupportedReason == nil,
      "the memory view walks glibc's malloc heap, which a sanitizer replaces")
  }
}

/// Whether this process's malloc heap can be walked (see ``Testing/Trait/memoryViewSupported``):
/// where it cannot, explanations have no paths from true roots.
public let memoryViewIsSupported = ProcessSnapshot.ownHeapUnsupportedReason == nil
