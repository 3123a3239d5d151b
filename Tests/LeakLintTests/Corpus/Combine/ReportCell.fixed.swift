// swift-format-ignore-file
// Corpus file for LeakLint tests: realistic code, linted, never compiled.
// A cell configured by another type: the cell empties its bag when it is reused.
import Combine
import UIKit

final class ReportItemViewModel {
  @Published var isSelected = false
  let title: String
  init(title: String) { self.title = title }
}

final class ReportCell: UITableViewCell {
  let checkmark = UIImageView(image: UIImage(systemName: "checkmark"))
  var disposeBag = Set<AnyCancellable>()

  override func prepareForReuse() {
    super.prepareForReuse()
    disposeBag.removeAll()
  }
}

enum ReportSection {
  static func configure(cell: ReportCell, with viewModel: ReportItemViewModel) {
    cell.textLabel?.text = viewModel.title
    viewModel.$isSelected
      .sink { selected in
        cell.checkmark.isHidden = !selected
        cell.accessibilityTraits = selected ? .selected : []
      }
      .store(in: &cell.disposeBag)
  }
}
