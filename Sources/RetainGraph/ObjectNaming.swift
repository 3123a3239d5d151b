import CRemoteMirror

/// Gives the class instances on a path the names the caller chose.
///
/// The instances are retained only while the naming function runs, and only
/// if they are still the objects that were inspected (same metadata, not
/// deinitialising); afterwards nothing is kept.
enum ObjectNaming {
  /// Names by address for the instances in `metadata` (address → metadata when inspected).
  static func names(
    for metadata: [UInt: UInt], fixed: [UInt: String], naming: (@Sendable (AnyObject) -> String?)?
  ) -> [UInt: String] {
    var names = fixed
    guard let naming else { return names }
    var held: [(UInt, AnyObject)] = []
    for (address, expected) in metadata where names[address] == nil {
      var current: UInt = 0
      guard rm_read(address, &current, 8, true) == 8, current == expected,
        let pointer = UnsafeMutableRawPointer(bitPattern: address), swift_tryRetain(pointer) != nil
      else { continue }
      held.append((address, Unmanaged<AnyObject>.fromOpaque(pointer).takeRetainedValue()))
    }
    for (address, object) in held {
      if let name = naming(object) { names[address] = name }
    }
    return names
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
