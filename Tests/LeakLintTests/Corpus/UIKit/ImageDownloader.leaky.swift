// swift-format-ignore-file
// Corpus file for LeakLint tests: realistic code, linted, never compiled.
import UIKit

final class ImageDownloader: NSObject, URLSessionDataDelegate {
  private var session: URLSession!
  private var buffers: [Int: Data] = [:]
  private var completions: [Int: (UIImage?) -> Void] = [:]

  override init() {
    super.init()
    session = URLSession(configuration: .default, delegate: self, delegateQueue: .main)  // leak: urlsession-delegate
  }

  func download(_ url: URL, completion: @escaping (UIImage?) -> Void) {
    let task = session.dataTask(with: url)
    completions[task.taskIdentifier] = completion
    task.resume()
  }

  func urlSession(_ session: URLSession, dataTask: URLSessionDataTask, didReceive data: Data) {
    buffers[dataTask.taskIdentifier, default: Data()].append(data)
  }

  func urlSession(_ session: URLSession, task: URLSessionTask, didCompleteWithError error: Error?) {
    let data = buffers.removeValue(forKey: task.taskIdentifier)
    completions.removeValue(forKey: task.taskIdentifier)?(data.flatMap(UIImage.init(data:)))
  }
}

final class AvatarView: UIImageView {
  private let downloader = ImageDownloader()

  func show(_ url: URL) {
    downloader.download(url) { [weak self] image in self?.image = image }
  }
}
