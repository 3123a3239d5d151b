// swift-format-ignore-file
// Corpus file for LeakLint tests: realistic code, linted, never compiled.
import Foundation

struct Job: Sendable {
  let id: Int
  let payload: String
}

actor JobWorker {
  private let jobs: AsyncStream<Job>
  private var loop: Task<Void, Never>?
  private var processed = 0
  private let log: @Sendable (String) -> Void

  init(jobs: AsyncStream<Job>, log: @escaping @Sendable (String) -> Void) {
    self.jobs = jobs
    self.log = log
  }

  func start() {
    guard loop == nil else { return }
    let jobs = self.jobs
    loop = Task { [weak self] in
      for await job in jobs {
        await self?.run(job)
      }
    }
  }

  public func stop() {
    loop?.cancel()
    loop = nil
  }

  private func run(_ job: Job) async {
    processed += 1
    log("job \(job.id) done (\(processed))")
  }
}
