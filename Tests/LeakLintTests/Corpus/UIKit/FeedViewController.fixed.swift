// swift-format-ignore-file
// Corpus file for LeakLint tests: realistic code, linted, never compiled.
import UIKit

final class FeedViewModel {
  var items: [String] = []
  var onUpdate: (() -> Void)?
  private let api: FeedAPI

  init(api: FeedAPI) { self.api = api }

  func load() {
    api.fetch { [weak self] result in
      self?.items = result
      self?.onUpdate?()
    }
  }
}

final class FeedAPI {
  func fetch(completion: @escaping ([String]) -> Void) {
    DispatchQueue.global().async { completion(["Ada", "Grace"]) }
  }
}

final class FeedViewController: UIViewController, UITableViewDataSource {
  private let tableView = UITableView()
  private let viewModel = FeedViewModel(api: FeedAPI())
  private let refreshControl = UIRefreshControl()

  override func viewDidLoad() {
    super.viewDidLoad()
    view.addSubview(tableView)
    tableView.dataSource = self
    tableView.refreshControl = refreshControl
    refreshControl.addAction(UIAction { [weak self] _ in self?.viewModel.load() }, for: .valueChanged)
    viewModel.onUpdate = { [weak self] in
      self?.tableView.reloadData()
      self?.refreshControl.endRefreshing()
    }
    viewModel.load()
  }

  func tableView(_ tableView: UITableView, numberOfRowsInSection section: Int) -> Int {
    viewModel.items.count
  }

  func tableView(_ tableView: UITableView, cellForRowAt indexPath: IndexPath) -> UITableViewCell {
    let cell = tableView.dequeueReusableCell(withIdentifier: "cell", for: indexPath)
    var content = cell.defaultContentConfiguration()
    content.text = viewModel.items.map { $0.uppercased() }[indexPath.row]
    cell.contentConfiguration = content
    return cell
  }
}
