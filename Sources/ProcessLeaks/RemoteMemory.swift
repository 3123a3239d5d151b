import CProcessLeaks

/// Reads another process's memory with `process_vm_readv`: never faults,
/// whatever the address; absurd sizes are refused.
struct RemoteMemory: Sendable {
  /// The process read.
  let pid: Int32

  /// Copies up to `count` bytes at `address` into `buffer`; returns the bytes copied.
  func read(_ address: UInt, into buffer: UnsafeMutableRawPointer, count: Int) -> Int {
    guard count > 0 else { return 0 }
    return pl_readRemote(pid, UInt64(address), buffer, count)
  }

  /// The `count` bytes at `address`, or nil unless all could be read.
  func bytes(at address: UInt, count: Int) -> [UInt8]? {
    guard count > 0 else { return [] }
    var result = [UInt8](repeating: 0, count: count)
    let copied = result.withUnsafeMutableBytes { read(address, into: $0.baseAddress!, count: count) }
    return copied == count ? result : nil
  }

  /// The word at `address`, or nil when it cannot be read.
  func word(at address: UInt) -> UInt? {
    var value: UInt = 0
    let copied = withUnsafeMutableBytes(of: &value) { read(address, into: $0.baseAddress!, count: 8) }
    return copied == 8 ? value : nil
  }

  /// The 32-bit value at `address`, or nil.
  func uint32(at address: UInt) -> UInt32? {
    var value: UInt32 = 0
    let copied = withUnsafeMutableBytes(of: &value) { read(address, into: $0.baseAddress!, count: 4) }
    return copied == 4 ? value : nil
  }
}
