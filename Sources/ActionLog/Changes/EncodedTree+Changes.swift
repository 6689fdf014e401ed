extension EncodedTree {
  /// The changes that turn `old`, the previous encoding, into this one: the same, in the same
  /// order, as ``JSONChange/changes(from:to:identifies:)`` between the two whole values.
  ///
  /// A patched array compares only its encoded elements: the others are those of `old`. With as
  /// many elements on both sides, the whole diff trims the equal ones at both ends and compares
  /// the rest pair by pair, which gives the changes of the patched elements in increasing order.
  ///
  /// A patched array's element keeps its position; with `identifies`, its changes name it by
  /// the identifier it carries (see ``JSONChange``), as the whole diff does when the array's
  /// elements all carry distinct ones: a `TrackedArray`'s elements do.
  ///
  /// - Complexity: O(size of the encoded values and of what they replace in `old`).
  func changes(from old: JSONValue, identifies: Bool = true) -> [JSONChange] {
    var changes: [JSONChange] = []
    collectChanges(from: old, into: &changes, identifies: identifies)
    return changes
  }

  /// Appends ``changes(from:identifies:)`` to `changes`.
  ///
  /// - Complexity: O(size of the encoded values and of what they replace in `old`).
  func collectChanges(
    from old: JSONValue, into changes: inout [JSONChange], identifies: Bool = true
  ) {
    var path: [PathStep] = []
    // Deep enough for most states: the path grows without copying itself.
    path.reserveCapacity(8)
    collect(from: old, path: &path, into: &changes, identifies: identifies)
  }

  private func collect(
    from old: JSONValue, path: inout [PathStep], into changes: inout [JSONChange],
    identifies: Bool
  ) {
    switch (old, self) {
    case (_, .value(let new)):
      JSONChange.collect(old, new, path: &path, into: &changes, identifies: identifies)
    case (.object(let oldObject), .object(let members))
    where oldObject.hasKeys(members.lazy.map(\.key)):
      // The same keys in the same order, as after every entry but the first: pair by position.
      for (position, member) in oldObject.members.enumerated() {
        path.append(.token(member.key))
        members[position].value.collect(
          from: member.value, path: &path, into: &changes, identifies: identifies)
        path.removeLast()
      }
    case (.object(let oldObject), .object(let members)):
      // Both sides are in the same key order, unless the old one came from elsewhere: walk them
      // side by side, and search only when they part.
      var matched = [Bool](repeating: false, count: members.count)
      var next = 0
      for member in oldObject.members {
        let position =
          next < members.count && members[next].key == member.key
          ? next : members.firstIndex { $0.key == member.key }
        path.append(.token(member.key))
        if let position {
          matched[position] = true
          next = position + 1
          members[position].value.collect(
            from: member.value, path: &path, into: &changes, identifies: identifies)
        } else {
          changes.append(JSONChange(.remove, path, old: member.value, value: nil))
        }
        path.removeLast()
      }
      for (position, member) in members.enumerated() where !matched[position] {
        var value = JSONValue.null
        member.value.apply(to: &value)
        changes.append(JSONChange(.add, path + [.token(member.key)], old: nil, value: value))
      }
    case (.array(let elements), .patchedArray(let patched)):
      for element in patched where element.index < elements.count {
        let old = elements[element.index]
        if identifies, let id = old.elementIdentifier, element.value.elementIdentifier == id {
          path.append(.id(id))
        } else {
          path.append(.token(String(element.index)))
        }
        JSONChange.collect(
          old, element.value, path: &path, into: &changes, identifies: identifies)
        path.removeLast()
      }
    default:
      // A tree only patches what the previous encoding had at the same path, so the kinds match;
      // a replacement keeps the diff right all the same.
      var value = old
      apply(to: &value)
      changes.append(JSONChange(.replace, path, old: old, value: value))
    }
  }

  /// Turns `tree`, the previous encoding, into this one, changing in place what it keeps.
  ///
  /// - Complexity: O(size of the encoded values), and O(1) per element kept by a patched array
  ///   when `tree` is not shared.
  func apply(to tree: inout JSONValue) {
    switch self {
    case .value(let value):
      tree = value
    case .object(let members):
      var old = JSONObject()
      if case .object(let object) = tree { old = object }
      tree = .null
      if old.hasKeys(members.lazy.map(\.key)) {
        // The same keys in the same order, as after every entry but the first: in place.
        for (position, member) in members.enumerated() {
          old.modifyValue(at: position) { member.value.apply(to: &$0) }
        }
        tree = .object(old)
        return
      }
      var object = JSONObject()
      for member in members {
        var child = JSONValue.null
        _ = old.modify(member.key) { swap(&child, &$0) }
        member.value.apply(to: &child)
        object[member.key] = child
      }
      tree = .object(object)
    case .patchedArray(let patched):
      guard case .array(var elements) = tree else { return }
      tree = .null
      for element in patched where element.index < elements.count {
        elements[element.index] = element.value
      }
      tree = .array(elements)
    }
  }
}
