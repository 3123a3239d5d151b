import Dispatch
import NIOCore
import Synchronization

/// The port a server bound, set once from the server's own thread.
public final class PortBox: Sendable {
  private let port = Atomic<Int>(0)
  public init() {}
  public func set(_ value: Int) { port.store(value, ordering: .releasing) }
  public var value: Int { port.load(ordering: .acquiring) }
}

extension EventLoopGroup {
  /// Shuts the group down and waits until the callback that reported it has
  /// finished on its queue: when this returns no thread is still running the
  /// shutdown's work (a closure still held by a worker at exit would keep
  /// the group "reachable" in one run and not the next).
  public func shutdownCompletely() async throws {
    let queue = DispatchQueue(label: "fixture.shutdown")
    try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Void, any Error>) in
      shutdownGracefully(queue: queue) { error in
        if let error { continuation.resume(throwing: error) } else { continuation.resume() }
      }
    }
    queue.sync {}
  }
}
