import StateStore

/// Swift source text for values found in a state: literals, and paths from `$0` to a field
/// found with `Mirror`, so that a written test assigns the field a JSON change names.
enum SwiftSource {
  /// A path from `$0` into a state, as far as it was walked.
  struct Walk {
    /// The Swift text of the path, such as `$0.todos[id: 3]?.done`.
    var text = "$0"
    /// The value at the end of the path, as stored (an optional stays optional).
    var value: Any
    /// Whether the path ends in an element looked up by identifier, which is optional.
    var endsInLookup = false
  }

  /// Walks `steps` from `root`, or returns `nil` where a step has no Swift spelling: a member
  /// that is not a stored property of the same name, a `nil` optional, an identifier that is
  /// neither an integer nor a string.
  ///
  /// - Complexity: O(length of the path × members or elements on the way).
  static func walk(_ steps: some Sequence<PathStep>, from root: Any) -> Walk? {
    var walk = Walk(value: root)
    for step in steps {
      if walk.endsInLookup {
        walk.text += "?"
        walk.endsInLookup = false
      }
      var value = walk.value
      let mirror = Mirror(reflecting: value)
      if mirror.displayStyle == .optional {
        guard let wrapped = mirror.children.first?.value else { return nil }
        value = wrapped
        walk.text += "?"
      }
      if let elements = trackedElements(of: value) {
        let position: Int?
        switch step {
        case .token(let token): position = JSONPointer.index(token)
        case .id(let id): position = elements.firstIndex { matches(identifier(of: $0), id) }
        }
        guard let position, position < elements.count,
          let id = identifier(of: elements[position]), let literal = literal(forIdentifier: id)
        else { return nil }
        walk.text += "[id: \(literal)]"
        walk.value = elements[position]
        walk.endsInLookup = true
        continue
      }
      let inner = Mirror(reflecting: value)
      switch (inner.displayStyle, step) {
      case (.collection, .token(let token)):
        let elements = inner.children.map(\.value)
        guard let position = JSONPointer.index(token), position < elements.count else {
          return nil
        }
        walk.text += "[\(position)]"
        walk.value = elements[position]
      case (.collection, .id(let id)):
        let elements = inner.children.map(\.value)
        guard let position = elements.firstIndex(where: { matches(identifier(of: $0), id) })
        else { return nil }
        walk.text += "[\(position)]"
        walk.value = elements[position]
      case (.struct, .token(let token)), (.class, .token(let token)):
        guard isIdentifier(token),
          let child = inner.children.first(where: { $0.label == token })
        else { return nil }
        walk.text += "." + (keywords.contains(token) ? "`\(token)`" : token)
        walk.value = child.value
      default:
        return nil
      }
    }
    return walk
  }

  /// The elements of a `TrackedArray`, or `nil` for any other value.
  static func trackedElements(of value: Any) -> [Any]? {
    guard String(describing: type(of: value)).hasPrefix("TrackedArray<"),
      let storage = Mirror(reflecting: value).children.first(where: { $0.label == "_storage" })
    else { return nil }
    return Mirror(reflecting: storage.value).children.map(\.value)
  }

  /// The `id` stored property of an element, if it has one.
  static func identifier(of element: Any) -> Any? {
    Mirror(reflecting: element).children.first { $0.label == "id" }?.value
  }

  /// Whether a Swift identifier equals a JSON one.
  static func matches(_ identifier: Any?, _ json: JSONValue) -> Bool {
    switch (identifier, json) {
    case (let number as Int, .number(let text)): Int(text) == number
    case (let text as String, .string(let json)): text == json
    default: false
    }
  }

  /// An integer or string identifier as a literal.
  static func literal(forIdentifier identifier: Any) -> String? {
    switch identifier {
    case let number as Int: String(number)
    case let text as String: stringLiteral(text)
    default: nil
    }
  }

  /// A literal for `json`, the encoding of `value`: a Swift literal for a `Bool`, an `Int`, a
  /// `Double`, a `String` or a `nil` optional, otherwise a `decoded(json:)` call.
  static func literal(for value: Any?, json: JSONValue) -> String {
    var value = value
    if let present = value, Mirror(reflecting: present).displayStyle == .optional {
      value = Mirror(reflecting: present).children.first?.value
      if value == nil, json == .null { return "nil" }
    }
    switch (value, json) {
    case (is Bool, .bool(let flag)): return flag ? "true" : "false"
    case (is Int, .number(let text)) where Int(text) != nil: return text
    case (is Double, .number(let text)): return text
    case (is String, .string(let text)): return stringLiteral(text)
    default: return "try decoded(json: \(rawLiteral(json.text())))"
    }
  }

  /// A string literal of `text`, escaped.
  static func stringLiteral(_ text: String) -> String {
    var literal = "\""
    for scalar in text.unicodeScalars {
      switch scalar {
      case "\\": literal += "\\\\"
      case "\"": literal += "\\\""
      case "\n": literal += "\\n"
      case "\r": literal += "\\r"
      case "\t": literal += "\\t"
      case _ where scalar.value < 0x20 || scalar.value == 0x7F:
        literal += "\\u{\(String(scalar.value, radix: 16))}"
      default: literal.unicodeScalars.append(scalar)
      }
    }
    return literal + "\""
  }

  /// A raw string literal of `text` (`#"…"#`), with enough `#` that nothing in it ends it or
  /// escapes.
  static func rawLiteral(_ text: String) -> String {
    var hashes = "#"
    while text.contains("\"" + hashes) || text.contains("\\" + hashes) { hashes += "#" }
    return hashes + "\"" + text + "\"" + hashes
  }

  /// The name of a type as a test that imports its module spells it: without the module.
  static func typeName(_ type: Any.Type) -> String {
    let full = String(reflecting: type)
    guard !full.contains("("), let dot = full.firstIndex(of: "."),
      !full[..<dot].contains("<")
    else { return String(describing: type) }
    return String(full[full.index(after: dot)...])
  }

  private static func isIdentifier(_ token: String) -> Bool {
    guard let first = token.unicodeScalars.first,
      first == "_" || first.properties.isAlphabetic
    else { return false }
    return token.unicodeScalars.allSatisfy {
      $0 == "_" || $0.properties.isAlphabetic || ("0"..."9").contains($0)
    }
  }

  private static let keywords: Set<String> = [
    "associatedtype", "class", "deinit", "enum", "extension", "func", "import", "init", "inout",
    "let", "operator", "protocol", "static", "struct", "subscript", "typealias", "var",
    "break", "case", "continue", "default", "defer", "do", "else", "for", "guard", "if", "in",
    "repeat", "return", "switch", "where", "while", "as", "is", "nil", "self", "Self", "super",
    "throw", "throws", "true", "false", "try", "catch",
  ]
}
