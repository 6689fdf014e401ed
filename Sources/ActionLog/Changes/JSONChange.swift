/// One step of a structural diff between two JSON values, as a diff-mode log writes it under
/// `"diff"`: `{"op":"replace","path":"/todos[id=3]/done","old":false,"value":true}`.
///
/// The operations are those of JSON Patch (RFC 6902), `add`, `remove` and `replace`, with paths
/// (see ``JSONPath``), plus the value each one replaces or removes (`old`), so that a diff reads
/// in both directions. Applied in order, a diff turns the old value into the new one.
///
/// An array whose elements all carry distinct identifiers (objects with an `id` member that is a
/// string or a number: a `TrackedArray`, an array of `Identifiable` values encoded with their
/// `id`) is compared by identity, from version 2 of the log format: its elements are named by
/// their `id` (`/todos[id=3]/done`), an element added or removed is one `add` or `remove`
/// naming it with its position (`index`), and an element that moved is one `move` from its
/// position (`from`) to another (`index`), whatever else moved around it.
package struct JSONChange: Sendable, Equatable {
  /// What the change does at its path.
  package enum Operation: String, Sendable {
    /// A member or array element that was not there: `value`.
    case add
    /// A member or array element that is gone: `old`.
    case remove
    /// A value that became another: `old`, then `value`.
    case replace
    /// An identified element that moved within its array, from `from` to `index`.
    case move
  }

  /// What the change does.
  package var operation: Operation
  /// Where; empty for the whole value.
  package var path: [PathStep]
  /// The value before the change, for `remove` and `replace`.
  package var old: JSONValue?
  /// The value after the change, for `add` and `replace`.
  package var value: JSONValue?
  /// For a change of an identified element itself (its path ends with its identifier): where
  /// it stands after an `add` or a `move`, where it stood before a `remove`, counted in the
  /// array as it is when the change applies.
  package var index: Int?
  /// For a `move`: where the element stood before it.
  package var from: Int?

  /// Creates a change.
  package init(
    _ operation: Operation, _ path: [PathStep], old: JSONValue?, value: JSONValue?,
    index: Int? = nil, from: Int? = nil
  ) {
    self.operation = operation
    self.path = path
    self.old = old
    self.value = value
    self.index = index
    self.from = from
  }

  /// Creates a change at a path of JSON Pointer tokens.
  package init(_ operation: Operation, _ tokens: [String], old: JSONValue?, value: JSONValue?) {
    self.init(operation, tokens.map { .token($0) }, old: old, value: value)
  }
}

extension JSONChange {
  /// The changes that turn `old` into `new`, in the order they apply.
  ///
  /// - Objects are compared member by member, whatever their order.
  /// - Arrays lose their common prefix and suffix first. When both name every element by a
  ///   distinct identifier and `identifies` is set, the rest is compared by identity (see
  ///   ``JSONChange``): the changes inside the elements both have, then the removals, the moves
  ///   and the additions. Otherwise an element inserted or removed anywhere is one `add` or
  ///   `remove` at its index; the elements left in the middle are compared by position, and
  ///   the extra ones are added or removed at the end of the middle (removals from the highest
  ///   index down, so each index is right when it applies).
  /// - Any other difference, a leaf or a change of kind, is one `replace`.
  ///
  /// - Parameters:
  ///   - old: The value before.
  ///   - new: The value after.
  ///   - identifies: Whether arrays of identified elements are compared by identity;
  ///     `false` for a log of format version 1, whose readers know only positions.
  /// - Complexity: O(size of both values), plus the equality checks that trim arrays, plus
  ///   O(elements × moves) for an identified array whose elements moved.
  package static func changes(
    from old: JSONValue, to new: JSONValue, identifies: Bool = true
  ) -> [JSONChange] {
    var changes: [JSONChange] = []
    var path: [PathStep] = []
    collect(old, new, path: &path, into: &changes, identifies: identifies)
    return changes
  }

  /// Appends to `changes` the changes that turn `old` into `new`, both found at `path`.
  static func collect(
    _ old: JSONValue, _ new: JSONValue, path: inout [PathStep], into changes: inout [JSONChange],
    identifies: Bool
  ) {
    switch (old, new) {
    case (.object(let oldObject), .object(let newObject))
    where oldObject.hasKeys(newObject.members.lazy.map(\.key)):
      // The same keys in the same order, as an object encoded again mostly has: pair by
      // position, which gives the changes of the general case below without looking up keys.
      for (position, member) in oldObject.members.enumerated() {
        path.append(.token(member.key))
        collect(
          member.value, newObject.members[position].value, path: &path, into: &changes,
          identifies: identifies)
        path.removeLast()
      }
    case (.object(let oldObject), .object(let newObject)):
      for member in oldObject.members {
        path.append(.token(member.key))
        if let newValue = newObject[member.key] {
          collect(member.value, newValue, path: &path, into: &changes, identifies: identifies)
        } else {
          changes.append(JSONChange(.remove, path, old: member.value, value: nil))
        }
        path.removeLast()
      }
      for member in newObject.members where oldObject[member.key] == nil {
        changes.append(
          JSONChange(.add, path + [.token(member.key)], old: nil, value: member.value))
      }
    case (.array(let oldElements), .array(let newElements)):
      collectArray(oldElements, newElements, path: &path, into: &changes, identifies: identifies)
    default:
      if old != new { changes.append(JSONChange(.replace, path, old: old, value: new)) }
    }
  }

  private static func collectArray(
    _ old: [JSONValue], _ new: [JSONValue], path: inout [PathStep],
    into changes: inout [JSONChange], identifies: Bool
  ) {
    var prefix = 0
    while prefix < old.count, prefix < new.count, old[prefix] == new[prefix] { prefix += 1 }
    var suffix = 0
    while suffix < old.count - prefix, suffix < new.count - prefix,
      old[old.count - 1 - suffix] == new[new.count - 1 - suffix]
    {
      suffix += 1
    }
    let oldMiddle = old.count - prefix - suffix
    let newMiddle = new.count - prefix - suffix
    if oldMiddle == 0, newMiddle == 0 { return }
    if identifies,
      collectIdentified(
        old, new, middle: (prefix, suffix), path: &path, into: &changes)
    {
      return
    }
    let paired = min(oldMiddle, newMiddle)
    for index in prefix..<prefix + paired {
      path.append(.token(String(index)))
      collect(old[index], new[index], path: &path, into: &changes, identifies: identifies)
      path.removeLast()
    }
    for index in (prefix + paired..<prefix + oldMiddle).reversed() {
      changes.append(
        JSONChange(.remove, path + [.token(String(index))], old: old[index], value: nil))
    }
    for index in prefix + paired..<prefix + newMiddle {
      changes.append(
        JSONChange(.add, path + [.token(String(index))], old: nil, value: new[index]))
    }
  }
}

extension JSONChange {
  /// Why a diff does not apply to a value.
  package struct Mismatch: Error, Equatable, Sendable, CustomStringConvertible {
    /// The pointer of the change that did not apply.
    package var path: String
    /// Why.
    package var reason: String

    /// Creates a mismatch at `path`, a JSON Pointer.
    package init(path: String, reason: String) {
      self.path = path
      self.reason = reason
    }

    /// `path: reason`.
    package var description: String { "\(path.isEmpty ? "/" : path): \(reason)" }
  }

  /// Applies `changes`, in order, to `value`.
  ///
  /// The `old` values are not checked: a change applies where its path leads. An element step
  /// finds its element by identifier (looking first at the position the change gives).
  ///
  /// - Throws: ``Mismatch`` when a path leads nowhere (a missing member, an index out of
  ///   range, an identifier no element or several elements carry, a step into a leaf); `value`
  ///   may then be partly changed.
  /// - Complexity: O(length of each path) per change, plus O(elements) for an array insertion
  ///   or removal or an element step, and O(members) for a member removal.
  package static func apply(
    _ changes: [JSONChange], to value: inout JSONValue
  ) throws(Mismatch) {
    var hints = PositionHints()
    try apply(changes, to: &value, hints: &hints)
  }

  /// Applies `changes`, in order, to `value`, as ``apply(_:to:)`` does, looking for an element
  /// named by its identifier first where `hints` last found it, and noting where it is.
  ///
  /// A reader that applies the diffs of a log one entry after another keeps one `hints`: an
  /// entry that changes an element named by its identifier then costs O(1) in the array, not
  /// O(elements), when the element has not moved since the last entry that named it.
  ///
  /// - Throws: ``Mismatch``, as ``apply(_:to:)`` does.
  package static func apply(
    _ changes: [JSONChange], to value: inout JSONValue, hints: inout PositionHints
  ) throws(Mismatch) {
    for change in changes {
      try change.apply(to: &value, at: change.path[...], hints: &hints)
    }
  }

  private func apply(
    to target: inout JSONValue, at path: ArraySlice<PathStep>, hints: inout PositionHints
  ) throws(Mismatch) {
    guard let step = path.first else {
      guard operation == .add || operation == .replace else {
        throw mismatch("cannot \(operation.rawValue) the whole value")
      }
      target = value ?? .null
      return
    }
    let rest = path.dropFirst()
    // Moved out and consumed, so that the object or array below is held once and changes in
    // place: a switch over `target` itself (or over a tuple holding it) keeps a copy for its
    // length, and each change would copy the whole array.
    var taken = JSONValue.null
    swap(&taken, &target)
    switch consume taken {
    case .object(var object):
      defer { target = .object(object) }
      guard case .token(let token) = step else {
        throw mismatch("an element step leads into an object, not an array")
      }
      if rest.isEmpty {
        switch operation {
        case .add, .replace: object[token] = value ?? .null
        case .remove:
          guard object[token] != nil else { throw mismatch("no member \"\(token)\"") }
          object[token] = nil
        case .move: throw mismatch("a move names an element by its identifier")
        }
        return
      }
      let found = try object.modify(token) { (member: inout JSONValue) throws(Mismatch) in
        try apply(to: &member, at: rest, hints: &hints)
      }
      guard found else { throw mismatch("no member \"\(token)\"") }
    case .array(var elements):
      defer { target = .array(elements) }
      switch step {
      case .token(let token):
        try apply(to: &elements, at: token, rest, hints: &hints)
      case .id(let id):
        try apply(to: &elements, id: id, at: path, rest, hints: &hints)
      }
    case let leaf:
      target = leaf
      guard case .token(let token) = step else {
        throw mismatch("an element step leads into a value that is not an array")
      }
      throw mismatch("\"\(token)\" leads into a value that is neither an object nor an array")
    }
  }

  /// Applies the change to `elements` at the index `token`, then along `rest`.
  private func apply(
    to elements: inout [JSONValue], at token: String, _ rest: ArraySlice<PathStep>,
    hints: inout PositionHints
  ) throws(Mismatch) {
    guard let index = JSONPointer.index(token) else { throw mismatch("\"\(token)\" is no index") }
    if rest.isEmpty, operation == .add {
      guard index <= elements.count else { throw mismatch("index \(index) is out of range") }
      elements.insert(value ?? .null, at: index)
      return
    }
    guard index < elements.count else { throw mismatch("index \(index) is out of range") }
    if rest.isEmpty {
      switch operation {
      case .remove: elements.remove(at: index)
      case .add, .replace: elements[index] = value ?? .null
      case .move: throw mismatch("a move names an element by its identifier")
      }
      return
    }
    try apply(to: &elements[index], at: rest, hints: &hints)
  }

  /// Applies the change to the element of `elements` whose identifier is `id`, the first step of
  /// `path`, then along `rest`.
  private func apply(
    to elements: inout [JSONValue], id: JSONValue, at path: ArraySlice<PathStep>,
    _ rest: ArraySlice<PathStep>, hints: inout PositionHints
  ) throws(Mismatch) {
    if rest.isEmpty, operation == .add {
      guard let index, index <= elements.count else {
        throw mismatch("an added element needs an \"index\" within the array")
      }
      elements.insert(value ?? .null, at: index)
      return
    }
    // A step in the middle of the path: where the element was last found is the hint.
    let key = rest.isEmpty ? nil : PositionHints.key(self.path[...path.startIndex])
    let hint =
      rest.isEmpty ? (operation == .move ? from : index) : key.flatMap { hints.positions[$0] }
    let position: Int
    switch JSONValue.position(of: id, in: elements, hint: hint) {
    case .found(let found): position = found
    case .missing: throw mismatch("no element has this identifier")
    case .ambiguous: throw mismatch("several elements have this identifier")
    }
    if let key {
      if position != hint { hints.note(position, for: key) }
      try apply(to: &elements[position], at: rest, hints: &hints)
      return
    }
    switch operation {
    case .remove: elements.remove(at: position)
    case .add, .replace: elements[position] = value ?? .null
    case .move:
      let element = elements.remove(at: position)
      guard let index, index <= elements.count else {
        elements.insert(element, at: position)
        throw mismatch("a move needs an \"index\" within the array")
      }
      elements.insert(element, at: index)
    }
  }

  private func mismatch(_ reason: String) -> Mismatch {
    Mismatch(path: JSONPath.text(path), reason: reason)
  }
}

/// Where elements named by their identifier were last found, by the path that names them: what
/// lets a reader of a log find an element again in O(1) when it has not moved.
package struct PositionHints: Sendable {
  /// The position each element path was last found at.
  private(set) var positions: [String: Int] = [:]
  /// How many positions are kept at most: a log that names ever more elements does not make a
  /// reader's memory grow without bound.
  static let capacity = 100_000

  /// Creates hints that know no position.
  package init() {}

  /// The key of the element that the last step of `path` names.
  static func key(_ path: some Collection<PathStep>) -> String {
    JSONPath.text(path)
  }

  mutating func note(_ position: Int, for key: String) {
    if positions.count >= Self.capacity, positions[key] == nil { positions.removeAll() }
    positions[key] = position
  }
}
