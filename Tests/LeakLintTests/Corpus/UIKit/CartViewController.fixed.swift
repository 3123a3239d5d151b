// swift-format-ignore-file
// Corpus file for LeakLint tests: realistic code, linted, never compiled.
import UIKit

final class CartViewController: UIViewController {
  private let currency = "EUR"
  private let totalLabel = UILabel()
  private var prices: [Double] = []

  lazy var formatPrice: (Double) -> String = { [unowned self] price in
    String(format: "%.2f %@", price, self.currency)
  }

  lazy var headerLabel: UILabel = {
    let label = UILabel()
    label.text = "Cart (\(self.currency))"
    return label
  }()

  override func viewDidLoad() {
    super.viewDidLoad()
    view.addSubview(headerLabel)
    view.addSubview(totalLabel)
    totalLabel.text = formatPrice(prices.reduce(0, +))
  }
}

final class CartCell: UITableViewCell {
  var onRemove: (() -> Void)?
  let removeButton = UIButton()

  override init(style: UITableViewCell.CellStyle, reuseIdentifier: String?) {
    super.init(style: style, reuseIdentifier: reuseIdentifier)
    contentView.addSubview(removeButton)
    removeButton.addAction(UIAction { [weak self] _ in self?.onRemove?() }, for: .touchUpInside)
  }

  required init?(coder: NSCoder) { nil }
}

final class CartListViewController: UITableViewController {
  private var items: [String] = []

  override func tableView(_ tableView: UITableView, cellForRowAt indexPath: IndexPath) -> UITableViewCell {
    let cell = tableView.dequeueReusableCell(withIdentifier: "cart", for: indexPath) as! CartCell
    cell.onRemove = { [weak self] in
      self?.items.remove(at: indexPath.row)
      self?.tableView.reloadData()
    }
    return cell
  }
}
