// swift-format-ignore-file
// Corpus file for LeakLint tests: realistic code, linted, never compiled.
// A cell configured by another type: its subscription captures the cell and lives in the cell's bag, never emptied.
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
}

enum ReportSection {
  static func configure(cell: ReportCell, with viewModel: ReportItemViewModel) {
    cell.textLabel?.text = viewModel.title
    viewModel.$isSelected
      .sink { selected in  // leak: combine-sink
        cell.checkmark.isHidden = !selected
        cell.accessibilityTraits = selected ? .selected : []
      }
      .store(in: &cell.disposeBag)
  }
}
