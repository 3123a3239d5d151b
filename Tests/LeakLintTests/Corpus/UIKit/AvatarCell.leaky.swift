// swift-format-ignore-file
// Corpus file for LeakLint tests: realistic code, linted, never compiled.
// A cell whose image loader keeps a completion: a capture list takes the image view, not self.
import UIKit

final class ImageLoader {
  var onImage: ((UIImage?) -> Void)?
  private var task: URLSessionDataTask?

  func load(_ url: URL) {
    task?.cancel()
    task = URLSession.shared.dataTask(with: url) { [weak self] data, _, _ in
      let image = data.flatMap(UIImage.init(data:))
      DispatchQueue.main.async { self?.onImage?(image) }
    }
    task?.resume()
  }
}

final class AvatarCell: UITableViewCell {
  private let avatarView = UIImageView()
  private let nameLabel = UILabel()
  private let loader = ImageLoader()

  override init(style: UITableViewCell.CellStyle, reuseIdentifier: String?) {
    super.init(style: style, reuseIdentifier: reuseIdentifier)
    contentView.addSubview(avatarView)
    contentView.addSubview(nameLabel)
  }

  required init?(coder: NSCoder) { fatalError("init(coder:) has not been implemented") }

  func configure(name: String, avatarURL: URL) {
    nameLabel.text = name
    loader.onImage = { image in  // leak: stored-closure
      self.avatarView.image = image ?? UIImage(systemName: "person.circle")
    }
    loader.load(avatarURL)
  }
}
