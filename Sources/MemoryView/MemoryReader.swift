import CMemoryView

#if canImport(Glibc)
  import Glibc
#endif

/// Reads the memory of a process: our own or another one, stopped or running.
///
/// Every read is a copy through `process_vm_readv`, so an address that is not
/// mapped (a freed block, a stale pointer, a process that exited) makes the
/// read come back short instead of faulting. Reads larger than 256 MiB and
/// addresses outside user space copy nothing.
///
/// ```swift
/// let memory = ProcessMemory.current
/// if let word = memory.word(at: address) { print(String(word, radix: 16)) }
/// ```
public protocol MemoryReading: Sendable {
  /// The process read.
  var pid: pid_t { get }
  /// Copies up to `buffer.count` bytes at `address`; returns the bytes copied.
  func read(_ address: UInt, into buffer: UnsafeMutableRawBufferPointer) -> Int
}

extension MemoryReading {
  /// The word at `address`, or nil when it cannot be read.
  public func word(at address: UInt) -> UInt? {
    var value: UInt = 0
    let copied = withUnsafeMutableBytes(of: &value) { read(address, into: $0) }
    return copied == MemoryLayout<UInt>.size ? value : nil
  }

  /// `count` bytes at `address`, or fewer when the end is not readable.
  public func bytes(at address: UInt, count: Int) -> [UInt8] {
    guard count > 0, count <= Int(MVMaximumRead) else { return [] }
    var bytes = [UInt8](repeating: 0, count: count)
    let copied = bytes.withUnsafeMutableBytes { read(address, into: $0) }
    bytes.removeLast(count - copied)
    return bytes
  }

  /// The 32-bit value at `address`, or nil when it cannot be read.
  public func uint32(at address: UInt) -> UInt32? {
    var value: UInt32 = 0
    let copied = withUnsafeMutableBytes(of: &value) { read(address, into: $0) }
    return copied == 4 ? value : nil
  }

  /// The NUL-terminated string at `address`, at most `maximumLength` bytes.
  public func string(at address: UInt, maximumLength: Int = 4096) -> String? {
    var bytes = self.bytes(at: address, count: maximumLength)
    guard let end = bytes.firstIndex(of: 0) else { return nil }
    bytes.removeSubrange(end...)
    return String(decoding: bytes, as: UTF8.self)
  }
}

/// The memory of a process by its id, read with `process_vm_readv`.
///
/// Reading another process needs the right to trace it (same user and no
/// Yama restriction, or root); reading our own always works.
///
/// ```swift
/// let target = ProcessMemory(pid: child)
/// let header = target.bytes(at: imageBase, count: 64)
/// ```
public struct ProcessMemory: MemoryReading, Hashable {
  public let pid: pid_t

  /// The memory of the process `pid`.
  public init(pid: pid_t) { self.pid = pid }

  /// Our own process.
  public static var current: ProcessMemory { ProcessMemory(pid: getpid()) }

  /// Whether this is our own process.
  public var isCurrentProcess: Bool { pid == getpid() }

  public func read(_ address: UInt, into buffer: UnsafeMutableRawBufferPointer) -> Int {
    guard let base = buffer.baseAddress, !buffer.isEmpty else { return 0 }
    return mv_read(pid, address, base, buffer.count)
  }

  /// Reads the word at each address (nil where unreadable) in as few system calls as possible.
  public func words(at addresses: [UInt]) -> [UInt?] {
    guard !addresses.isEmpty else { return [] }
    var words = [UInt](repeating: 0, count: addresses.count)
    var readable = [UInt8](repeating: 0, count: addresses.count)
    addresses.withUnsafeBufferPointer { addresses in
      mv_readWords(pid, addresses.baseAddress, &words, &readable, addresses.count)
    }
    return zip(words, readable).map { $1 != 0 ? $0 : nil }
  }

  /// How many `process_vm_readv` calls the calling thread has made so far.
  public static var systemCallCount: Int { mv_systemCallCount() }
}
