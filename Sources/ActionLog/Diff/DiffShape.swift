/// How the diff sees one value: the part of its `Mirror` that matters for comparing it.
enum DiffShape {
  /// A value with nothing inside, compared by its description.
  case leaf
  /// An optional: `nil`, or the wrapped value.
  case optional(Any?)
  /// A struct, class or tuple: its stored properties, in declaration order.
  case fields([(label: String, value: Any)])
  /// An enum: its case name and associated values, if any.
  case enumCase(name: String, payload: Any?)
  /// An ordered collection, compared by index.
  case sequence([Any])
  /// An unordered collection of elements, compared by element.
  case set([Any])
  /// A dictionary, compared by key.
  case dictionary([(key: Any, value: Any)])

  /// Classifies `value` by its mirror.
  ///
  /// - Complexity: O(number of direct children).
  init(of value: Any) {
    if let collection = value as? any DiffableCollection {
      self = .sequence(collection.diffElements)
      return
    }
    let mirror = Mirror(reflecting: value)
    switch mirror.displayStyle {
    case .optional:
      self = .optional(mirror.children.first?.value)
    case .collection:
      self = .sequence(mirror.children.map(\.value))
    case .set:
      self = .set(mirror.children.map(\.value))
    case .dictionary:
      self = .dictionary(
        mirror.children.compactMap { child in
          let pair = Array(Mirror(reflecting: child.value).children)
          guard pair.count == 2 else { return nil }
          return (key: pair[0].value, value: pair[1].value)
        })
    case .enum:
      if let child = mirror.children.first, let label = child.label {
        self = .enumCase(name: label, payload: child.value)
      } else {
        self = .enumCase(name: String(describing: value), payload: nil)
      }
    default:
      let fields = Self.fields(of: mirror)
      self = fields.isEmpty ? .leaf : .fields(fields)
    }
  }

  /// The labelled children of `mirror` and of its superclass mirrors, superclass first.
  private static func fields(of mirror: Mirror) -> [(label: String, value: Any)] {
    var inherited = mirror.superclassMirror.map(fields(of:)) ?? []
    for (index, child) in mirror.children.enumerated() {
      inherited.append((label: child.label ?? ".\(index)", value: child.value))
    }
    return inherited
  }
}
