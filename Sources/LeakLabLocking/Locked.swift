#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// A value behind a pthread mutex: the one lock of LeakLab's libraries.
///
/// It does what `Synchronization.Mutex` does, in a way ThreadSanitizer can
/// follow: TSan intercepts `pthread_mutex_lock`, while `Mutex` locks with
/// atomics and futex calls inside the (uninstrumented) standard library, so
/// TSan sees no ordering between two threads' locked sections and reports
/// accesses to the locked value as races (113 false reports in the unit
/// suite once; later, one run in five of the TSan lane on an image list
/// behind a `Mutex`). It also holds values that are not `Sendable` (the
/// detector's weak references to any object), which `Mutex` rejects: its
/// `Sendable` promise is kept by always taking the lock.
///
/// The value lives behind a pointer rather than in a stored `var`: the
/// mutex already guarantees exclusive access, and a class property would
/// add a dynamic exclusivity check to every call.
///
/// ```swift
/// let cache = Locked<[UInt: String]>([:])
/// cache.withLock { $0[1] = "one" }
/// ```
package final class Locked<State>: @unchecked Sendable {
  private let state: UnsafeMutablePointer<State>
  private let mutex: UnsafeMutablePointer<pthread_mutex_t>

  package init(_ initial: State) {
    state = .allocate(capacity: 1)
    state.initialize(to: initial)
    mutex = .allocate(capacity: 1)
    pthread_mutex_init(mutex, nil)
  }

  deinit {
    state.deinitialize(count: 1)
    state.deallocate()
    pthread_mutex_destroy(mutex)
    mutex.deallocate()
  }

  /// Runs `body` with exclusive access to the value. Not reentrant.
  package func withLock<Result>(_ body: (inout State) throws -> Result) rethrows -> Result {
    pthread_mutex_lock(mutex)
    defer { pthread_mutex_unlock(mutex) }
    return try body(&state.pointee)
  }
}
