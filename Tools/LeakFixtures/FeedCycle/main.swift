// A feed screen's use case keeps a completion closure that captures the use
// case's owner: FeedService → completion → LoadFeedUseCase → service →
// FeedService. `leaky` leaks the cycle at exit; `fixed` captures weakly.
//
//   FeedCycle leaky|fixed [--wait]
//
// With --wait it prints "ready" after leaking and waits for a line on its
// standard input before it exits (for `leaklab leaks --pid`).
#if canImport(Glibc)
  import Glibc
#endif

final class FeedService {
  var completion: (([String]) -> Void)?
  let endpoint = "https://example.com/feed"

  func load() { completion?(["first", "second"]) }
}

final class LoadFeedUseCase {
  let service: FeedService
  var items: [String] = []

  init(service: FeedService) { self.service = service }

  func start(leaky: Bool) {
    if leaky {
      service.completion = { items in self.items = items }
    } else {
      service.completion = { [weak self] items in self?.items = items }
    }
    service.load()
  }
}

@inline(never)
func run(leaky: Bool) -> Int {
  let useCase = LoadFeedUseCase(service: FeedService())
  useCase.start(leaky: leaky)
  return useCase.items.count
}

let mode = CommandLine.arguments.dropFirst().first ?? "leaky"
guard mode == "leaky" || mode == "fixed" else {
  print("usage: FeedCycle leaky|fixed [--wait]")
  exit(2)
}
let count = run(leaky: mode == "leaky")
if CommandLine.arguments.contains("--wait") {
  print("ready")
  fflush(nil)
  _ = readLine()
}
print("loaded \(count) items (\(mode))")
