import MemoryView

extension MemoryReading {
  /// The 32-bit value at `address`, or nil when it cannot be read.
  func uint32(at address: UInt) -> UInt32? {
    var value: UInt32 = 0
    let copied = withUnsafeMutableBytes(of: &value) { read(address, into: $0) }
    return copied == 4 ? value : nil
  }
}
