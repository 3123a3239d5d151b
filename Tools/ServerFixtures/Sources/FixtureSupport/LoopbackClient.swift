#if canImport(Glibc)
  import Glibc
#endif

/// A blocking HTTP/1.1 client for the fixtures' own requests: one
/// connection per request (`Connection: close`), so the server closes each
/// channel and its handlers are removed, as after a real client's request.
///
/// Plain sockets, no Foundation and no NIO: the client allocates next to
/// nothing on the heap the leak tools read.
public enum LoopbackClient {
  /// Sends `GET path` to 127.0.0.1:`port` and returns the response's status
  /// code (0 when the exchange failed).
  public static func get(_ path: String, port: Int) -> Int {
    let socket = Glibc.socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
    guard socket >= 0 else { return 0 }
    defer { close(socket) }
    var address = sockaddr_in()
    address.sin_family = sa_family_t(AF_INET)
    address.sin_port = in_port_t(UInt16(port).bigEndian)
    address.sin_addr.s_addr = inet_addr("127.0.0.1")
    let connected = withUnsafePointer(to: &address) {
      $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
        connect(socket, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
      }
    }
    guard connected == 0 else { return 0 }
    let request = Array("GET \(path) HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\n\r\n".utf8)
    var sent = 0
    while sent < request.count {
      let count = request[sent...].withUnsafeBytes { send(socket, $0.baseAddress, $0.count, 0) }
      guard count > 0 else { return 0 }
      sent += count
    }
    // Read to the end: the server closes the connection after its response.
    var response: [UInt8] = []
    var buffer = [UInt8](repeating: 0, count: 4096)
    while true {
      let count = buffer.withUnsafeMutableBytes { recv(socket, $0.baseAddress, $0.count, 0) }
      guard count > 0 else { break }
      response += buffer[..<count]
    }
    // "HTTP/1.1 200 OK"
    guard response.count >= 12 else { return 0 }
    return Int(String(decoding: response[9..<12], as: UTF8.self)) ?? 0
  }
}
