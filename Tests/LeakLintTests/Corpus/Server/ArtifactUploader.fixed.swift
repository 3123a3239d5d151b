// swift-format-ignore-file
// Corpus file for LeakLint tests: realistic code, linted, never compiled.
// The owner shuts the uploader down, which lets the session go.
import Foundation

final class ArtifactUploader: NSObject, URLSessionTaskDelegate {
  private var session: URLSession!
  private(set) var bytesSent: Int64 = 0

  override init() {
    super.init()
    session = URLSession(configuration: .ephemeral, delegate: self, delegateQueue: nil)
  }

  func upload(_ file: URL, to endpoint: URL) {
    var request = URLRequest(url: endpoint)
    request.httpMethod = "PUT"
    session.uploadTask(with: request, fromFile: file).resume()
  }

  func shutdown() {
    session.finishTasksAndInvalidate()
  }

  func urlSession(_ session: URLSession, task: URLSessionTask, didSendBodyData bytesSent: Int64, totalBytesSent: Int64, totalBytesExpectedToSend: Int64) {
    self.bytesSent = totalBytesSent
  }
}
