// swift-format-ignore-file
// Corpus file for LeakLint tests: realistic code, linted, never compiled.
// A subscription to a publisher that never completes, kept by the view model, capturing it.
import Combine
import Foundation

struct Post: Decodable { let id: Int; let text: String }

final class TimelineAPI {
  let session = URLSession.shared

  func fetchPosts(page: Int) -> AnyPublisher<[Post], Error> {
    let url = URL(string: "https://example.com/posts?page=\(page)")!
    return session.dataTaskPublisher(for: url)
      .map(\.data)
      .decode(type: [Post].self, decoder: JSONDecoder())
      .eraseToAnyPublisher()
  }
}

final class TimelineViewModel: ObservableObject {
  @Published var filter = ""
  @Published private(set) var posts: [Post] = []
  @Published private(set) var visible: [Post] = []
  private var drafts: [String] = []
  private let api = TimelineAPI()
  private var cancellables = Set<AnyCancellable>()

  init() {
    $filter
      .removeDuplicates()
      .sink { text in  // leak: combine-sink
        self.visible = self.posts.filter { text.isEmpty || $0.text.contains(text) }
      }
      .store(in: &cancellables)
  }

  func load() {
    api.fetchPosts(page: 1)
      .receive(on: DispatchQueue.main)
      .sink(receiveCompletion: { _ in }, receiveValue: { posts in
        self.posts = posts
      })
      .store(in: &cancellables)
  }

  func discardDrafts() {
    drafts.removeAll()
  }
}
