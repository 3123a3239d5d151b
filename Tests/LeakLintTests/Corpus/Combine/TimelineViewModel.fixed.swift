// swift-format-ignore-file
// Corpus file for LeakLint tests: realistic code, linted, never compiled.
// Subscriptions to publishers that complete (a request, a Future, Just) hold self only until they finish.
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

  func unreadCount() -> Future<Int, Never> {
    Future { promise in promise(.success(3)) }
  }
}

final class TimelineViewModel: ObservableObject {
  @Published var filter = ""
  @Published private(set) var posts: [Post] = []
  @Published private(set) var visible: [Post] = []
  @Published private(set) var unread = 0
  private let api = TimelineAPI()
  private var cancellables = Set<AnyCancellable>()

  init() {
    $filter
      .removeDuplicates()
      .sink { [weak self] text in
        guard let self else { return }
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
    api.unreadCount()
      .sink { count in self.unread = count }
      .store(in: &cancellables)
    Just(posts.count)
      .delay(for: .seconds(1), scheduler: DispatchQueue.main)
      .sink { _ in self.refreshVisible() }
      .store(in: &cancellables)
    URLSession.shared.dataTaskPublisher(for: URL(string: "https://example.com/ping")!)
      .sink(receiveCompletion: { _ in self.refreshVisible() }, receiveValue: { _ in })
      .store(in: &cancellables)
  }

  private func refreshVisible() {
    visible = posts
  }
}
