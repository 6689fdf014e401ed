/// One step of a structural diff between two JSON values, as a diff-mode log writes it under
/// `"diff"`: `{"op":"replace","path":"/todos/0/done","old":false,"value":true}`.
///
/// The operations are those of JSON Patch (RFC 6902), `add`, `remove` and `replace`, with JSON
/// Pointer paths, plus the value each one replaces or removes (`old`), so that a diff reads in
/// both directions. Applied in order, a diff turns the old value into the new one.
package struct JSONChange: Sendable, Equatable {
  /// What the change does at its path.
  package enum Operation: String, Sendable {
    /// A member or array element that was not there: `value`.
    case add
    /// A member or array element that is gone: `old`.
    case remove
    /// A value that became another: `old`, then `value`.
    case replace
  }

  /// What the change does.
  package var operation: Operation
  /// Where, as JSON Pointer tokens; empty for the whole value.
  package var path: [String]
  /// The value before the change, for `remove` and `replace`.
  package var old: JSONValue?
  /// The value after the change, for `add` and `replace`.
  package var value: JSONValue?

  /// Creates a change.
  package init(_ operation: Operation, _ path: [String], old: JSONValue?, value: JSONValue?) {
    self.operation = operation
    self.path = path
    self.old = old
    self.value = value
  }
}

extension JSONChange {
  /// The changes that turn `old` into `new`, in the order they apply.
  ///
  /// - Objects are compared member by member, whatever their order.
  /// - Arrays lose their common prefix and suffix first, so an element inserted or removed
  ///   anywhere is one `add` or `remove` at its index; the elements left in the middle are
  ///   compared by position, and the extra ones are added or removed at the end of the middle
  ///   (removals from the highest index down, so each index is right when it applies).
  /// - Any other difference, a leaf or a change of kind, is one `replace`.
  ///
  /// - Complexity: O(size of both values), plus the equality checks that trim arrays.
  package static func changes(from old: JSONValue, to new: JSONValue) -> [JSONChange] {
    var changes: [JSONChange] = []
    var path: [String] = []
    collect(old, new, path: &path, into: &changes)
    return changes
  }

  /// Appends to `changes` the changes that turn `old` into `new`, both found at `path`.
  static func collect(
    _ old: JSONValue, _ new: JSONValue, path: inout [String], into changes: inout [JSONChange]
  ) {
    switch (old, new) {
    case (.object(let oldObject), .object(let newObject))
    where oldObject.hasKeys(newObject.members.lazy.map(\.key)):
      // The same keys in the same order, as an object encoded again mostly has: pair by
      // position, which gives the changes of the general case below without looking up keys.
      for (position, member) in oldObject.members.enumerated() {
        path.append(member.key)
        collect(member.value, newObject.members[position].value, path: &path, into: &changes)
        path.removeLast()
      }
    case (.object(let oldObject), .object(let newObject)):
      for member in oldObject.members {
        path.append(member.key)
        if let newValue = newObject[member.key] {
          collect(member.value, newValue, path: &path, into: &changes)
        } else {
          changes.append(JSONChange(.remove, path, old: member.value, value: nil))
        }
        path.removeLast()
      }
      for member in newObject.members where oldObject[member.key] == nil {
        changes.append(JSONChange(.add, path + [member.key], old: nil, value: member.value))
      }
    case (.array(let oldElements), .array(let newElements)):
      collectArray(oldElements, newElements, path: &path, into: &changes)
    default:
      if old != new { changes.append(JSONChange(.replace, path, old: old, value: new)) }
    }
  }

  private static func collectArray(
    _ old: [JSONValue], _ new: [JSONValue], path: inout [String],
    into changes: inout [JSONChange]
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
    let paired = min(oldMiddle, newMiddle)
    for index in prefix..<prefix + paired {
      path.append(String(index))
      collect(old[index], new[index], path: &path, into: &changes)
      path.removeLast()
    }
    for index in (prefix + paired..<prefix + oldMiddle).reversed() {
      changes.append(JSONChange(.remove, path + [String(index)], old: old[index], value: nil))
    }
    for index in prefix + paired..<prefix + newMiddle {
      changes.append(JSONChange(.add, path + [String(index)], old: nil, value: new[index]))
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
  /// The `old` values are not checked: a change applies where its path leads.
  ///
  /// - Throws: ``Mismatch`` when a path leads nowhere (a missing member, an index out of
  ///   range, a step into a leaf); `value` may then be partly changed.
  /// - Complexity: O(length of each path) per change, plus O(elements) for an array insertion
  ///   or removal and O(members) for a member removal.
  package static func apply(
    _ changes: [JSONChange], to value: inout JSONValue
  ) throws(Mismatch) {
    for change in changes {
      try change.apply(to: &value, at: change.path[...])
    }
  }

  private func apply(to target: inout JSONValue, at path: ArraySlice<String>) throws(Mismatch) {
    guard let token = path.first else {
      guard operation != .remove else { throw mismatch("cannot remove the whole value") }
      target = value ?? .null
      return
    }
    let rest = path.dropFirst()
    // Moved out and consumed, so that the object or array below is held once and changes in
    // place: a switch over `target` itself keeps a copy for its length.
    var taken = JSONValue.null
    swap(&taken, &target)
    switch consume taken {
    case .object(var object):
      defer { target = .object(object) }
      if rest.isEmpty {
        switch operation {
        case .add, .replace: object[token] = value ?? .null
        case .remove:
          guard object[token] != nil else { throw mismatch("no member \"\(token)\"") }
          object[token] = nil
        }
        return
      }
      let found = try object.modify(token) { (member: inout JSONValue) throws(Mismatch) in
        try apply(to: &member, at: rest)
      }
      guard found else { throw mismatch("no member \"\(token)\"") }
    case .array(var elements):
      defer { target = .array(elements) }
      guard let index = JSONPointer.index(token) else { throw mismatch("\"\(token)\" is no index") }
      if rest.isEmpty, operation == .add {
        guard index <= elements.count else { throw mismatch("index \(index) is out of range") }
        elements.insert(value ?? .null, at: index)
        return
      }
      guard index < elements.count else { throw mismatch("index \(index) is out of range") }
      if rest.isEmpty {
        if operation == .remove {
          elements.remove(at: index)
        } else {
          elements[index] = value ?? .null
        }
        return
      }
      try apply(to: &elements[index], at: rest)
    case let leaf:
      target = leaf
      throw mismatch("\"\(token)\" leads into a value that is neither an object nor an array")
    }
  }

  private func mismatch(_ reason: String) -> Mismatch {
    Mismatch(path: JSONPointer.text(path), reason: reason)
  }
}

extension JSONChange {
  /// The change as a JSON object: `op`, `path`, then `old` and `value` where they apply.
  package var json: JSONValue {
    var object = JSONObject()
    object["op"] = .string(operation.rawValue)
    object["path"] = .string(JSONPointer.text(path))
    if let old { object["old"] = old }
    if let value { object["value"] = value }
    return .object(object)
  }

  /// Reads a change written as ``json``.
  ///
  /// - Throws: ``Mismatch`` naming what is missing or wrong.
  package init(json: JSONValue) throws(Mismatch) {
    guard case .object(let object) = json else {
      throw Mismatch(path: "", reason: "a change must be a JSON object")
    }
    guard let name = object["op"]?.stringValue, let operation = Operation(rawValue: name) else {
      throw Mismatch(path: "", reason: "\"op\" must be \"add\", \"remove\" or \"replace\"")
    }
    guard let pointer = object["path"]?.stringValue, let path = JSONPointer.tokens(pointer) else {
      throw Mismatch(path: "", reason: "\"path\" must be a JSON Pointer such as \"/todos/0\"")
    }
    let old = object["old"]
    let value = object["value"]
    guard operation == .remove || value != nil else {
      throw Mismatch(path: pointer, reason: "\"\(name)\" needs a \"value\"")
    }
    self.init(operation, path, old: old, value: value)
  }

  /// The changes as a JSON array.
  package static func json(_ changes: [JSONChange]) -> JSONValue {
    .array(changes.map(\.json))
  }

  /// The changes as compact JSON text: `json(changes).text()`, written without building it.
  ///
  /// - Complexity: O(size of the changes).
  package static func text(_ changes: [JSONChange]) -> String {
    var output = ""
    appendText(of: changes, to: &output)
    return output
  }

  /// Appends ``text(_:)`` of `changes` to `output`.
  ///
  /// - Complexity: O(size of the changes).
  package static func appendText(of changes: [JSONChange], to output: inout some JSONTextOutput) {
    output.write("[")
    for (position, change) in changes.enumerated() {
      if position > 0 { output.write(",") }
      // Each piece of text that does not vary is written in one go.
      switch change.operation {
      case .add: output.write("{\"op\":\"add\",\"path\":\"")
      case .remove: output.write("{\"op\":\"remove\",\"path\":\"")
      case .replace: output.write("{\"op\":\"replace\",\"path\":\"")
      }
      for token in change.path {
        output.write("/")
        // Letters, digits and most punctuation need no escape, in a pointer or in JSON.
        let isPlain = token.utf8.allSatisfy { byte in
          byte >= 0x20 && byte < 0x7F && byte != 0x22 && byte != 0x5C && byte != 0x7E
            && byte != 0x2F
        }
        if isPlain {
          output.write(token)
        } else {
          // By scalars: a token may start with a combining mark, which joins the `/` before it
          // into one character.
          let escaped = token.replacingOccurrences(of: "~", with: "~0")
            .replacingOccurrences(of: "/", with: "~1")
          var quoted = ""
          JSONValue.writeQuoted(escaped, to: &quoted, forHTML: false)
          var scalars = quoted.unicodeScalars
          scalars.removeFirst()
          scalars.removeLast()
          for scalar in scalars { output.write(scalar: scalar) }
        }
      }
      if let old = change.old {
        output.write("\",\"old\":")
        old.appendText(to: &output)
        if let value = change.value {
          output.write(",\"value\":")
          value.appendText(to: &output)
        }
      } else if let value = change.value {
        output.write("\",\"value\":")
        value.appendText(to: &output)
      } else {
        output.write("\"")
      }
      output.write("}")
    }
    output.write("]")
  }
}
