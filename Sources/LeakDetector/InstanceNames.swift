/// Names objects `TypeName#n`, numbering each type's instances in the order
/// they are first named. Numbers are stable for the registry's life.
struct InstanceNames {
  private struct TypeEntry {
    var name: String
    var count = 0
  }

  private struct Entry {
    weak var object: AnyObject?
    let number: Int
  }

  private var types: [ObjectIdentifier: TypeEntry] = [:]
  private var entries: [InvertedAddress: Entry] = [:]
  private var pruneThreshold = 64

  /// The unqualified name of a class.
  mutating func typeName(of type: AnyObject.Type) -> String {
    let key = ObjectIdentifier(type)
    if let entry = types[key] { return entry.name }
    let name = String(describing: type)
    types[key] = TypeEntry(name: name)
    return name
  }

  /// The type name and instance number of `object`, assigning a number on first use.
  mutating func number(of object: AnyObject) -> (typeName: String, number: Int) {
    let typeName = typeName(of: type(of: object))
    let key = InvertedAddress(object)
    // The same address can belong to a new object once the old one is gone:
    // a number is reused only while the weak reference still points here.
    if let entry = entries[key], entry.object === object {
      return (typeName, entry.number)
    }
    let typeKey = ObjectIdentifier(type(of: object))
    types[typeKey]!.count += 1
    let number = types[typeKey]!.count
    entries[key] = Entry(object: object, number: number)
    if entries.count > pruneThreshold { prune() }
    return (typeName, number)
  }

  /// `TypeName#n` for `object`.
  mutating func name(of object: AnyObject) -> String {
    let (typeName, number) = number(of: object)
    return "\(typeName)#\(number)"
  }

  private mutating func prune() {
    entries = entries.filter { $0.value.object != nil }
    pruneThreshold = max(64, entries.count * 2)
  }
}
