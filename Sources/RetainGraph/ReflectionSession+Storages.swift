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
      let offsets = collectionOffsets(element)
      guard !offsets.isEmpty else { return storages }
      guard let count = word(at: address + 16), count <= 1 << 20, stride > 0 else { return nil }
      for index in 0..<Int(count) {
        for offset in offsets {
          if let storage = word(at: address + 32 + UInt(index * stride + offset)) { storages.insert(storage) }
        }
      }
    case .dictionaryStorage(let key, let keyStride, let value, let valueStride):
      let keyOffsets = collectionOffsets(key)
      let valueOffsets = collectionOffsets(value)
      guard !keyOffsets.isEmpty || !valueOffsets.isEmpty else { return storages }
      guard let keys = word(at: address + 48), let values = word(at: address + 56) else { return nil }
      guard
        forEachOccupiedBucket(
          address, bitmapOffset: 64,
          { bucket in
            for offset in keyOffsets {
              if let storage = word(at: keys + bucket * UInt(keyStride) + UInt(offset)) {
                storages.insert(storage)
              }
            }
            for offset in valueOffsets {
              if let storage = word(at: values + bucket * UInt(valueStride) + UInt(offset)) {
                storages.insert(storage)
              }
            }
          })
      else { return nil }
    case .setStorage(let element, let stride):
      let offsets = collectionOffsets(element)
      guard !offsets.isEmpty else { return storages }
      guard let elements = word(at: address + 48) else { return nil }
      guard
        forEachOccupiedBucket(
          address, bitmapOffset: 56,
          { bucket in
            for offset in offsets {
              if let storage = word(at: elements + bucket * UInt(stride) + UInt(offset)) {
                storages.insert(storage)
              }
            }
          })
      else { return nil }
    case .empty:
      break
    }
    return storages
  }

  /// Where collection references sit in a value.
  private func collectionOffsets(_ value: ValueSlots) -> [Int] {
    value.slots.compactMap { slot -> Int? in
      if case .collection(let offset, _) = slot { return offset }
      return nil
    }
  }

  /// Calls `body` with each occupied bucket of the hashed storage at
  /// `storage` (its bitmap at `bitmapOffset`); false when the storage does
  /// not look like one. A table under 64 buckets keeps its bitmap in one
  /// word whose bits past the last bucket are set: those are not buckets.
  private func forEachOccupiedBucket(_ storage: UInt, bitmapOffset: UInt, _ body: (UInt) -> Void) -> Bool {
    guard let scaleWord = word(at: storage + 32), let count = word(at: storage + 16) else { return false }
    let scale = scaleWord & 0xFF
    guard scale < 32 else { return false }
    let bucketCount = 1 << Int(scale)
    guard count <= UInt(bucketCount), bucketCount <= 1 << 20 else { return false }
    var seen = 0
    for wordIndex in 0..<(bucketCount + 63) / 64 {
      guard var bits = word(at: storage + bitmapOffset + UInt(wordIndex * 8)) else { return false }
      if bucketCount < 64 { bits &= (1 << UInt(bucketCount)) - 1 }
      while bits != 0, seen < Int(count) {
        let bit = bits.trailingZeroBitCount
        bits &= bits - 1
        body(UInt(wordIndex * 64 + bit))
        seen += 1
      }
    }
    return true
  }
}
