import CRemoteMirror

extension ReflectionSession {
  /// The storage objects of the collections that the object at `address`
  /// holds in its own fields, and of collections stored in its elements when
  /// it is an array's storage; nil when that cannot be told (an enum or
  /// existential payload, a hashed collection's elements): any may be one.
  func collectionStorages(of address: UInt) -> Set<UInt>? {
    guard let layout = layout(ofObjectAt: address) else { return nil }
    var storages = Set<UInt>()
    switch layout.shape {
    case .fields(let slots):
      for slot in slots {
        switch slot {
        case .collection(let offset, _):
          if let storage = word(at: address + UInt(offset)) { storages.insert(storage) }
        case .dynamic:
          return nil
        case .reference, .function:
          break
        }
      }
    case .arrayStorage(let element, let stride):
      let offsets = element.slots.compactMap { slot -> Int? in
        if case .collection(let offset, _) = slot { return offset }
        return nil
      }
      guard !offsets.isEmpty else { return storages }
      guard let count = word(at: address + 16), count <= 1 << 20, stride > 0 else { return nil }
      for index in 0..<Int(count) {
        for offset in offsets {
          if let storage = word(at: address + 32 + UInt(index * stride + offset)) { storages.insert(storage) }
        }
      }
    case .dictionaryStorage, .setStorage:
      return nil
    case .empty:
      break
    }
    return storages
  }
}
