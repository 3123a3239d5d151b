import HeapModel

/// The fallback graph: references seen through `Mirror`.
///
/// `Mirror` cannot tell weak from strong (every reference is reported with
/// strength ``ReferenceStrength/unknown`` and followed, so a weak back edge
/// shows as a cycle) and cannot see closure captures. The objects met are held
/// strongly while a search runs, because `Mirror` needs values, and released
/// when it returns.
struct MirrorGraph {
  /// An edge found through `Mirror`.
  struct Edge {
    var label: String
    var target: ObjectIdentifier
  }

  private(set) var objects: [ObjectIdentifier: AnyObject] = [:]

  /// Remembers `object` and returns its node.
  mutating func node(for object: AnyObject) -> ObjectIdentifier {
    let identifier = ObjectIdentifier(object)
    objects[identifier] = object
    return identifier
  }

  /// The references `Mirror` shows for the object `node`.
  mutating func edges(of node: ObjectIdentifier) -> [(target: ObjectIdentifier, edge: Edge)] {
    guard let object = objects[node] else { return [] }
    var found: [(String, AnyObject)] = []
    var mirror: Mirror? = Mirror(reflecting: object)
    while let current = mirror {
      for (index, child) in current.children.enumerated() {
        Self.collect(
          child.value, label: child.label.map(TypeNames.fieldLabel) ?? "\(index)", depth: 0, into: &found)
      }
      mirror = current.superclassMirror
    }
    return found.map { label, target in
      let identifier = self.node(for: target)
      return (target: identifier, edge: Edge(label: label, target: identifier))
    }
  }

  private static func collect(
    _ value: Any, label: String, depth: Int, into found: inout [(String, AnyObject)]
  ) {
    guard depth < 12 else { return }
    if type(of: value) is AnyClass {
      found.append((label, value as AnyObject))
      return
    }
    let mirror = Mirror(reflecting: value)
    switch mirror.displayStyle {
    case .optional:
      if let child = mirror.children.first {
        collect(child.value, label: label, depth: depth + 1, into: &found)
      }
    case .collection, .set:
      for (index, child) in mirror.children.enumerated() {
        collect(child.value, label: "\(label)[\(index)]", depth: depth + 1, into: &found)
      }
    case .dictionary:
      for (index, pair) in mirror.children.enumerated() {
        let parts = Array(Mirror(reflecting: pair.value).children)
        guard parts.count == 2 else { continue }
        collect(parts[0].value, label: "\(label).keys[\(index)]", depth: depth + 1, into: &found)
        collect(parts[1].value, label: "\(label).values[\(index)]", depth: depth + 1, into: &found)
      }
    case .struct, .tuple, .enum:
      for (index, child) in mirror.children.enumerated() {
        let name = child.label.map(TypeNames.fieldLabel) ?? "\(index)"
        let childLabel = mirror.displayStyle == .enum ? label : "\(label).\(name)"
        collect(child.value, label: childLabel, depth: depth + 1, into: &found)
      }
    default:
      break
    }
  }

  /// A description of `object` for the caller.
  static func info(of object: AnyObject, name: String?) -> ObjectInfo {
    ObjectInfo(
      address: UInt(bitPattern: Unmanaged.passUnretained(object).toOpaque()),
      typeName: _typeName(type(of: object), qualified: false), name: name)
  }
}
