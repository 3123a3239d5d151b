// swift-format-ignore-file
// Corpus file for LeakLint tests: realistic code, linted, never compiled.
// A session whose delegate is the uploader, never invalidated.
import Foundation

final class ArtifactUploader: NSObject, URLSessionTaskDelegate {
  private var session: URLSession!
  private(set) var bytesSent: Int64 = 0

  override init() {
    super.init()
    session = URLSession(configuration: .ephemeral, delegate: self, delegateQueue: nil)  // leak: urlsession-delegate
  }

  func upload(_ file: URL, to endpoint: URL) {
    var request = URLRequest(url: endpoint)
    request.httpMethod = "PUT"
    session.uploadTask(with: request, fromFile: file).resume()
  }

  func urlSession(_ session: URLSession, task: URLSessionTask, didSendBodyData bytesSent: Int64, totalBytesSent: Int64, totalBytesExpectedToSend: Int64) {
    self.bytesSent = totalBytesSent
  }
}
