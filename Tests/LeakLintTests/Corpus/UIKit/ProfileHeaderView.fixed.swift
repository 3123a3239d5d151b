// swift-format-ignore-file
// Corpus file for LeakLint tests: realistic code, linted, never compiled.
// Views that hold other views: only a property the program sets to an owner is a back reference.
import UIKit

final class ChevronView: UIView {
  private let shadowView = UIView()
  private let arrowLayer = CAShapeLayer()

  override init(frame: CGRect) {
    super.init(frame: frame)
    addSubview(shadowView)
    layer.addSublayer(arrowLayer)
  }

  required init?(coder: NSCoder) { fatalError("init(coder:) has not been implemented") }
}

final class CardContainerView: UIView {
  var contentView: UIView? {
    didSet {
      oldValue?.removeFromSuperview()
      if let contentView { addSubview(contentView) }
    }
  }
  var accessory: UIView?
}

protocol BadgeViewStyle: AnyObject {
  var tintColor: UIColor { get }
}

final class BadgeView: UIView {
  @IBOutlet var countLabel: UILabel!
  var style: BadgeViewStyle?
  weak var header: ProfileHeaderView?

  func refresh() {
    countLabel.textColor = style?.tintColor
    header?.setNeedsLayout()
  }
}

final class ProfileHeaderView: UIView {
  private let badge = BadgeView()
  private let chevron = ChevronView()
  private let container = CardContainerView()

  override init(frame: CGRect) {
    super.init(frame: frame)
    badge.header = self
    container.contentView = chevron
    addSubview(badge)
    addSubview(container)
  }

  required init?(coder: NSCoder) { fatalError("init(coder:) has not been implemented") }
}
