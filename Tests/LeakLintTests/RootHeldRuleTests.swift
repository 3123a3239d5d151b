import LeakLint
import Testing

/// Rules for closures and objects a root keeps until torn down: observers,
/// timers, dispatch sources, URLSession delegates, and `asyncAfter`.
@Suite struct RootHeldRuleTests {
  // MARK: notification-observer

  @Test func anObserverBlockRemovedOnlyInDeinitIsFlagged() {
    expectFindings(
      """
      import Foundation
      final class InboxViewController {
        private var observer: NSObjectProtocol?
        func observe() {
          observer = NotificationCenter.default.addObserver(forName: .init("inbox"), object: nil, queue: .main) { _ in  // flagged
            self.refresh()
          }
        }
        deinit { if let observer { NotificationCenter.default.removeObserver(observer) } }
        func refresh() {}
      }
      """, rule: .notificationObserver)
  }

  @Test func aWeakObserverOrOneRemovedWhenTheScreenGoesIsNotFlagged() {
    expectFindings(
      """
      import Foundation
      final class InboxViewController {
        private var observer: NSObjectProtocol?
        private var other: NSObjectProtocol?
        func observe() {
          observer = NotificationCenter.default.addObserver(forName: .init("a"), object: nil, queue: .main) { [weak self] _ in
            self?.refresh()
          }
          other = NotificationCenter.default.addObserver(forName: .init("b"), object: nil, queue: .main) { _ in
            self.refresh()
          }
        }
        override func viewWillDisappear(_ animated: Bool) {
          if let other { NotificationCenter.default.removeObserver(other) }
        }
        func refresh() {}
      }
      """)
  }

  // MARK: repeating-timer

  @Test func aRepeatingTimerNeverInvalidatedOutsideDeinitIsFlagged() {
    expectFindings(
      """
      import Foundation
      final class Stopwatch {
        private var timer: Timer?
        private var display: Timer?
        func start() {
          timer?.invalidate()
          timer = Timer.scheduledTimer(withTimeInterval: 1, repeats: true) { _ in self.tick() }  // flagged
          display = Timer.scheduledTimer(timeInterval: 1, target: self, selector: #selector(tick), userInfo: nil, repeats: true)  // flagged
        }
        @objc func tick() {}
        deinit { timer?.invalidate() }
      }
      """, rule: .repeatingTimer)
  }

  @Test func oneShotSelfStoppingWeakOrInvalidatedTimersAreNotFlagged() {
    expectFindings(
      """
      import Foundation
      final class Stopwatch {
        private var timer: Timer?
        private var count = 0
        func start() {
          Timer.scheduledTimer(withTimeInterval: 1, repeats: false) { _ in self.tick() }
          Timer.scheduledTimer(withTimeInterval: 1, repeats: true) { timer in
            self.tick()
            if self.count > 3 { timer.invalidate() }
          }
          Timer.scheduledTimer(withTimeInterval: 1, repeats: true) { [weak self] _ in self?.tick() }
        }
        func tick() { count += 1 }
      }
      final class Countdown {
        private var timer: Timer?
        func start() { timer = Timer.scheduledTimer(withTimeInterval: 1, repeats: true) { _ in self.tick() } }
        func stop() { timer?.invalidate() }
        func tick() {}
      }
      final class Owner {
        let countdown = Countdown()
        func close() { countdown.stop() }
      }
      """)
  }

  // MARK: dispatch-source

  @Test func aDispatchSourceHandlerNeverCancelledIsFlagged() {
    expectFindings(
      """
      import Dispatch
      final class Poller {
        private let source = DispatchSource.makeTimerSource()
        func start() {
          source.schedule(deadline: .now(), repeating: 1)
          source.setEventHandler { self.poll() }  // flagged
          source.resume()
        }
        func poll() {}
      }
      """, rule: .dispatchSource)
  }

  @Test func aDispatchSourceCancelledWhenDoneIsNotFlagged() {
    expectFindings(
      """
      import Dispatch
      final class Poller {
        private let source = DispatchSource.makeTimerSource()
        func start() {
          source.setEventHandler { self.poll() }
          source.resume()
        }
        public func stop() { source.cancel() }
        func poll() {}
      }
      """)
  }

  // MARK: urlsession-delegate

  @Test func aSessionWithSelfAsDelegateNeverInvalidatedIsFlagged() {
    expectFindings(
      """
      import Foundation
      final class Downloader: NSObject, URLSessionDelegate {
        private var session: URLSession?
        func start() {
          session = URLSession(configuration: .default, delegate: self, delegateQueue: nil)  // flagged
        }
      }
      """, rule: .urlSessionDelegate)
  }

  @Test func aSessionInvalidatedWhenDoneIsNotFlagged() {
    expectFindings(
      """
      import Foundation
      final class Downloader: NSObject, URLSessionDelegate {
        private var session: URLSession?
        func start() {
          session = URLSession(configuration: .default, delegate: self, delegateQueue: nil)
        }
        public func finish() { session?.finishTasksAndInvalidate() }
      }
      """)
  }

  // MARK: delayed-dispatch

  @Test func asyncAfterCapturingSelfIsATemporaryLeak() {
    let findings = Linter().lint(
      source: """
        import Dispatch
        final class SyncScreen {
          func syncLater() {
            DispatchQueue.main.asyncAfter(deadline: .now() + 10) { self.sync() }
            DispatchQueue.main.asyncAfter(deadline: .now() + 10) { [weak self] in self?.sync() }
          }
          func sync() {}
        }
        """)
    #expect(findings.map(\.rule) == [.delayedDispatch])
    #expect(findings.map(\.severity) == [.note])
    #expect(findings.map(\.line) == [4])
  }

  @Test func aDispatchSourceRegistrationHandlerRunsOnceAndIsNotFlagged() {
    expectFindings(
      """
      import Dispatch
      final class SignalWatcher {
        private let source = DispatchSource.makeSignalSource(signal: SIGTERM)
        private(set) var registered = false
        func start() {
          source.setRegistrationHandler { self.registered = true }
          source.resume()
        }
      }
      """)
  }
}
