#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// A value behind a mutex.
///
/// The detector's state holds weak references to arbitrary, non-`Sendable`
/// objects; `Synchronization.Mutex` would reject them, so the state lives here
/// and its `Sendable` promise is kept by always taking the lock.
///
/// The state lives behind a pointer rather than in a stored `var`: the mutex
/// already guarantees exclusive access, and a class property would add a
/// dynamic exclusivity check to every call.
final class Locked<State>: @unchecked Sendable {
  private let state: UnsafeMutablePointer<State>
  private let mutex: UnsafeMutablePointer<pthread_mutex_t>

  init(_ initial: State) {
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

  /// Runs `body` with exclusive access to the state. Not reentrant.
  @inline(__always)
  func withLock<Result>(_ body: (inout State) throws -> Result) rethrows -> Result {
    pthread_mutex_lock(mutex)
    defer { pthread_mutex_unlock(mutex) }
    return try body(&state.pointee)
  }
}
