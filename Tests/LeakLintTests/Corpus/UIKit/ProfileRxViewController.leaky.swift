// swift-format-ignore-file
// Corpus file for LeakLint tests: realistic code, linted, never compiled.
// RxSwift: a subscription put in the screen's dispose bag, capturing the screen.
import RxCocoa
import RxSwift
import UIKit

final class ProfileViewModel {
  let displayName = BehaviorRelay<String>(value: "")
  let followerCount = BehaviorRelay<Int>(value: 0)
}

final class ProfileRxViewController: UIViewController {
  private let viewModel: ProfileViewModel
  private let disposeBag = DisposeBag()
  private let nameLabel = UILabel()
  private let followersLabel = UILabel()

  init(viewModel: ProfileViewModel) {
    self.viewModel = viewModel
    super.init(nibName: nil, bundle: nil)
  }

  required init?(coder: NSCoder) { fatalError("init(coder:) has not been implemented") }

  override func viewDidLoad() {
    super.viewDidLoad()
    view.addSubview(nameLabel)
    view.addSubview(followersLabel)
    viewModel.displayName
      .subscribe(onNext: { name in  // leak: combine-sink
        self.nameLabel.text = name
        self.title = name
      })
      .disposed(by: disposeBag)
    viewModel.followerCount
      .map { "\($0) followers" }
      .subscribe(onNext: { text in  // leak: combine-sink
        self.followersLabel.text = text
      })
      .disposed(by: disposeBag)
  }
}
