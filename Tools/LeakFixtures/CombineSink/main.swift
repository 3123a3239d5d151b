// A search view model subscribes to its own query with OpenCombine and keeps
// the subscription: SearchViewModel → cancellables → AnyCancellable → sink →
// closure context → SearchViewModel. `fixed` captures weakly.
//
//   CombineSink leaky|fixed
import OpenCombine

#if canImport(Glibc)
  import Glibc
#endif

final class SearchViewModel {
  let query = CurrentValueSubject<String, Never>("")
  var results: [String] = []
  var cancellables = Set<AnyCancellable>()

  @inline(never)
  init(leaky: Bool) {
    let searches = query.dropFirst().map { "results for \($0)" }
    if leaky {
      searches.sink { self.results.append($0) }.store(in: &cancellables)
    } else {
      searches.sink { [weak self] in self?.results.append($0) }.store(in: &cancellables)
    }
  }
}

@inline(never)
func run(leaky: Bool) -> Int {
  let model = SearchViewModel(leaky: leaky)
  model.query.send("swift")
  return model.results.count
}

let mode = CommandLine.arguments.dropFirst().first ?? "leaky"
guard mode == "leaky" || mode == "fixed" else {
  print("usage: CombineSink leaky|fixed")
  exit(2)
}
print("\(run(leaky: mode == "leaky")) search results (\(mode))")
