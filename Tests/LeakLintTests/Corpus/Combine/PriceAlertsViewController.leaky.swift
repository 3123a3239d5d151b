// swift-format-ignore-file
// Corpus file for LeakLint tests: realistic code, linted, never compiled.
// A Combine sink kept in cancellables that captures the screen; emptying another array does not end it.
import Combine
import UIKit

final class PriceStore {
  let prices = PassthroughSubject<Double, Never>()
}

final class PriceAlertsViewController: UIViewController {
  private let store: PriceStore
  private let priceLabel = UILabel()
  private var alerts: [Double] = []
  private var cancellables = Set<AnyCancellable>()

  init(store: PriceStore) {
    self.store = store
    super.init(nibName: nil, bundle: nil)
  }

  required init?(coder: NSCoder) { fatalError("init(coder:) has not been implemented") }

  override func viewDidLoad() {
    super.viewDidLoad()
    view.addSubview(priceLabel)
    store.prices
      .receive(on: DispatchQueue.main)
      .sink { price in  // leak: combine-sink
        self.priceLabel.text = String(format: "%.2f", price)
        if self.alerts.contains(where: { $0 <= price }) { self.alerts.removeAll() }
      }
      .store(in: &cancellables)
  }

  override func viewWillDisappear(_ animated: Bool) {
    super.viewWillDisappear(animated)
    alerts.removeAll()
  }
}
