// swift-format-ignore-file
// Corpus file for LeakLint tests: realistic code, linted, never compiled.
// Completions that may arrive after the screen closed capture it weakly.
import UIKit

struct Album {
  let title: String
  let artworkURL: URL
  let linerNotesURL: URL
}

final class ArtworkLoader {
  private let session: URLSession
  private let cache = NSCache<NSURL, UIImage>()

  init(session: URLSession = .shared) {
    self.session = session
  }

  func loadArtwork(from url: URL, completion: @escaping (UIImage?) -> Void) {
    if let cached = cache.object(forKey: url as NSURL) {
      completion(cached)
      return
    }
    session.dataTask(with: url) { [cache] data, _, _ in
      let image = data.flatMap(UIImage.init(data:))
      if let image { cache.setObject(image, forKey: url as NSURL) }
      DispatchQueue.main.async { completion(image) }
    }.resume()
  }
}

final class TypingThrottle {
  private let delay: TimeInterval

  init(delay: TimeInterval) {
    self.delay = delay
  }

  func schedule(_ work: @escaping () -> Void) {
    DispatchQueue.main.asyncAfter(deadline: .now() + delay, execute: work)
  }
}

final class AlbumViewController: UIViewController {
  private let album: Album
  private let loader = ArtworkLoader()
  private let throttle = TypingThrottle(delay: 0.4)
  private let artworkView = UIImageView()
  private let notesView = UITextView()
  private let filterLabel = UILabel()
  private lazy var caption: (Int) -> String = { [unowned self] count in "\(self.album.title): \(count) tracks" }

  init(album: Album) {
    self.album = album
    super.init(nibName: nil, bundle: nil)
  }

  required init?(coder: NSCoder) { fatalError("init(coder:) is not supported") }

  override func viewDidLoad() {
    super.viewDidLoad()
    view.addSubview(artworkView)
    view.addSubview(notesView)
    view.addSubview(filterLabel)
    loader.loadArtwork(from: album.artworkURL) { [weak self] image in
      self?.artworkView.image = image
    }
    URLSession.shared.dataTask(with: album.linerNotesURL) { [weak self] data, _, _ in
      let notes = data.flatMap { String(data: $0, encoding: .utf8) } ?? ""
      DispatchQueue.main.async { self?.notesView.text = notes }
    }.resume()
  }

  func filterTextDidChange(_ text: String) {
    throttle.schedule { [weak self] in self?.filterLabel.text = "Tracks matching \(text)" }
  }

  func showTrackCount(_ count: Int) {
    title = caption(count)
  }
}
