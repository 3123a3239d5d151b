/// A weak reference to an object, with the object's type name taken while it was alive.
struct WeakReference {
  weak var object: AnyObject?
  let typeName: String

  init(_ object: AnyObject) {
    self.object = object
    typeName = nameOfType(object)
  }

  var isGone: Bool { object == nil }
}

/// The unqualified name of an object's dynamic type, e.g. `ProfileScreen`.
func nameOfType(_ value: Any) -> String {
  String(describing: type(of: value))
}
