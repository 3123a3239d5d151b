// swift-format-ignore-file
// Corpus file for LeakLint tests: realistic code, linted, never compiled.
import Combine
import Foundation

final class SearchViewModel: ObservableObject {
  @Published var query = ""
  @Published private(set) var results: [String] = []
  @Published private(set) var isSearching = false
  private var cancellables = Set<AnyCancellable>()
  private let client: SearchClient

  init(client: SearchClient) {
    self.client = client
    $query
      .debounce(for: .milliseconds(300), scheduler: RunLoop.main)
      .removeDuplicates()
      .sink { [weak self] text in
        self?.search(text)
      }
      .store(in: &cancellables)
    client.statusPublisher
      .map { $0 == .busy }
      .assign(to: &$isSearching)
  }

  private func search(_ text: String) {
    client.search(text) { [weak self] found in
      self?.results = found.filter { !$0.isEmpty }
    }
  }
}

final class SearchClient {
  enum Status { case idle, busy }
  let statusPublisher = CurrentValueSubject<Status, Never>(.idle)

  func search(_ text: String, completion: @escaping ([String]) -> Void) {
    DispatchQueue.global().async { completion([text]) }
  }
}
