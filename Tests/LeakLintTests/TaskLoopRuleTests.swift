import LeakLint
import Testing

/// `task-loop`: a stored task loops over a sequence that never ends and captures self.
@Suite struct TaskLoopRuleTests {
  @Test func aStoredTaskLoopingOverAStreamIsFlagged() {
    expectFindings(
      """
      final class TickerViewModel {
        private var task: Task<Void, Never>?
        func start(prices: AsyncStream<Double>) {
          task = Task {  // flagged
            for await price in prices { self.show(price) }
          }
        }
        func show(_ price: Double) {}
        deinit { task?.cancel() }
      }
      """, rule: .taskLoop)
  }

  @Test func aStoredTaskPollingUntilCancelledIsFlagged() {
    expectFindings(
      """
      actor Poller {
        private var task: Task<Void, Never>?
        func start() {
          task = Task {  // flagged
            while !Task.isCancelled { await self.poll() }
          }
        }
        func poll() async {}
      }
      """, rule: .taskLoop)
  }

  @Test func tasksThatFinishOrAreCancelledAreNotFlagged() {
    expectFindings(
      """
      final class FeedViewModel {
        private var load: Task<Void, Never>?
        private var updates: Task<Void, Never>?
        private var weakUpdates: Task<Void, Never>?
        func start(stream: AsyncStream<Int>) {
          load = Task { await self.fetch() }
          updates = Task { for await value in stream { self.apply(value) } }
          weakUpdates = Task { [weak self] in
            for await value in stream {
              guard let self else { return }
              self.apply(value)
            }
          }
          Task { await self.fetch() }
        }
        func stop() { updates?.cancel() }
        func fetch() async {}
        func apply(_ value: Int) {}
      }
      final class Owner {
        let model = FeedViewModel()
        func viewWillDisappear() { model.stop() }
      }
      """)
  }

  @Test func aLoopThatCanBreakIsNotFlagged() {
    expectFindings(
      """
      final class Downloader {
        private var task: Task<Void, Never>?
        func start(chunks: AsyncStream<Int>) {
          task = Task {
            for await chunk in chunks {
              if chunk == 0 { break }
              self.write(chunk)
            }
          }
        }
        func write(_ chunk: Int) {}
      }
      """)
  }

  @Test func anEndlessTaskWhoseHandleIsDroppedIsFlagged() {
    expectFindings(
      """
      final class FeedViewModel {
        func start(stream: AsyncStream<Int>) {
          Task { for await value in stream { self.apply(value) } }  // flagged
        }
        func apply(_ value: Int) {}
      }
      """, rule: .taskLoop)
  }

  @Test func aWeakTaskWhoseLoopNeverEndsIsAZombie() {
    expectFindings(
      """
      final class FeedViewModel {
        private var updates: Task<Void, Never>?
        func start(stream: AsyncStream<Int>) {
          updates = Task { [weak self] in for await value in stream { self?.apply(value) } }  // flagged
          Task { [weak self] in  // flagged
            while true {
              try? await Task.sleep(for: .seconds(1))
              self?.apply(0)
            }
          }
        }
        func apply(_ value: Int) {}
      }
      """, rule: .taskZombie)
  }

  @Test func aLocalTaskCancelledOnEveryPathOutOfItsFunctionIsNotFlagged() {
    expectFindings(
      """
      final class Session {
        func serve() async {
          let heartbeat = Task { while true { self.ping() } }
          defer { heartbeat.cancel() }
          await read()
        }
        func read() async {}
        func ping() {}
      }
      """)
  }

  @Test func anUnownedTaskThatOutlivesSelfIsFlagged() {
    expectFindings(
      """
      final class Ticker {
        func start(stream: AsyncStream<Int>) {
          Task { [unowned self] in for await value in stream { self.show(value) } }  // flagged
        }
        func show(_ value: Int) {}
      }
      """, rule: .unownedCapture)
  }
}
