#if canImport(Glibc)
  import Glibc
#endif

/// A value behind a pthread mutex, for state RetainGraph shares between threads.
///
/// It does what `Synchronization.Mutex` does, in a way ThreadSanitizer can
/// follow: TSan intercepts `pthread_mutex_lock`, while `Mutex` locks with
/// atomics and futex calls inside the (uninstrumented) standard library, so
/// TSan sees no ordering between two threads' locked sections and reports
/// every access to the locked value as a race (113 false reports in the unit
/// suite). Uncontended, a lock and unlock cost about what `Mutex`'s do.
///
/// ```swift
/// let cache = PthreadLocked<[UInt: String]>([:])
/// cache.withLock { $0[1] = "one" }
/// ```
final class PthreadLocked<Value>: @unchecked Sendable {
  private var value: Value
  private let mutex = UnsafeMutablePointer<pthread_mutex_t>.allocate(capacity: 1)

  init(_ value: Value) {
    self.value = value
    pthread_mutex_init(mutex, nil)
  }

  deinit {
    pthread_mutex_destroy(mutex)
    mutex.deallocate()
  }

  /// Runs `body` with the value, holding the lock.
  func withLock<Result>(_ body: (inout Value) throws -> Result) rethrows -> Result {
    pthread_mutex_lock(mutex)
    defer { pthread_mutex_unlock(mutex) }
    return try body(&value)
  }
}
