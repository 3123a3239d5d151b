import CRemoteMirror

/// Gives the class instances on a path the names the caller chose.
///
/// The naming function is called only with objects proven to be live
/// instances of the type that was inspected: each one is retained by
/// ``rm_retainIfLive`` (which reads its header safely, adds a strong reference
/// only if the count word still holds the live value just read, and checks the
/// metadata again while holding it), or is already held by the caller. An
/// object that died or changed since the search is left unnamed. The
/// references are dropped once every name is known; nothing is kept.
enum ObjectNaming {
  /// Names by address for the instances in `metadata` (address → metadata when inspected).
  static func names(
    for metadata: [UInt: UInt], fixed: [UInt: String], naming: (@Sendable (AnyObject) -> String?)?
  ) -> [UInt: String] {
    var names = fixed
    guard let naming else { return names }
    var held: [(UInt, AnyObject)] = []
    for (address, expected) in metadata where names[address] == nil {
      guard let object = retainIfLive(address, metadata: expected) else { continue }
      held.append((address, object))
    }
    for (address, object) in held {
      if let name = naming(object) { names[address] = name }
    }
    return names
  }

  /// The object at `address`, retained, if it is still a live instance with `metadata`.
  static func retainIfLive(_ address: UInt, metadata: UInt) -> AnyObject? {
    guard let pointer = rm_retainIfLive(address, metadata) else { return nil }
    return Unmanaged<AnyObject>.fromOpaque(pointer).takeRetainedValue()
  }

  /// Applies `names` to an object description.
  static func apply(_ names: [UInt: String], to info: inout ObjectInfo) {
    if let name = names[info.address] { info.name = name }
  }

  /// Applies `names` to the targets of references.
  static func apply(_ names: [UInt: String], to references: inout [Reference]) {
    guard !names.isEmpty else { return }
    for index in references.indices { apply(names, to: &references[index].target) }
  }
}
