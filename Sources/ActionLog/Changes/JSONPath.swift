/// One step of a path into a JSON value, as a diff names what it changed.
///
/// A step is a JSON Pointer token (a member of an object, an index of an array), or, in an
/// array whose elements carry an identifier, the element whose `id` member is a given value:
/// `/todos[id=3]/done` is the `done` member of the element of `todos` whose `id` is `3`, wherever
/// it stands in the array. See ``JSONChange`` for which arrays a diff names by identifier.
package enum PathStep: Sendable, Hashable {
  /// A member of an object, or an index of an array: a JSON Pointer token.
  case token(String)
  /// The element of an array whose `id` member equals the value, a string or a number.
  case id(JSONValue)

  /// Whether `value` can name an element: a string, or a number.
  package static func isIdentifier(_ value: JSONValue) -> Bool {
    switch value {
    case .string, .number: true
    default: false
    }
  }

  package static func == (lhs: PathStep, rhs: PathStep) -> Bool {
    switch (lhs, rhs) {
    case (.token(let left), .token(let right)): left == right
    case (.id(let left), .id(let right)): left == right
    default: false
    }
  }

  package func hash(into hasher: inout Hasher) {
    switch self {
    case .token(let token):
      hasher.combine(0)
      hasher.combine(token)
    case .id(.number(let text)):
      hasher.combine(1)
      hasher.combine(text)
    case .id(.string(let text)):
      hasher.combine(2)
      hasher.combine(text)
    case .id(let value):
      hasher.combine(3)
      hasher.combine(value.text())
    }
  }
}

/// The text of paths: JSON Pointers (RFC 6901), extended in version 2 of the log format with the
/// steps that name an array's element by its identifier.
///
/// - Version 1: `/todos/0/done`; `~` is written `~0` and `/` is written `~1`.
/// - Version 2: the same, and an element step right after its array's token, with no slash:
///   `/todos[id=3]/done`, `/lists[id="home"]/items[id=7]`. The identifier is written as JSON;
///   `[` in a member's name is written `~2`, so that every `[` in a path starts an element step.
package enum JSONPath {
  /// The path text of `steps`, in the syntax of format version `version`.
  ///
  /// - Complexity: O(length of the steps).
  package static func text(_ steps: some Sequence<PathStep>, version: Int = ActionLogFormat.version)
    -> String
  {
    var text = ""
    append(steps, to: &text, version: version)
    return text
  }

  /// Appends the path text of `steps`, in the syntax of format version `version`, to `output`.
  ///
  /// - Complexity: O(length of the steps).
  package static func append(
    _ steps: some Sequence<PathStep>, to output: inout String, version: Int
  ) {
    for step in steps {
      switch step {
      case .token(let token):
        output += "/"
        output += escaped(token, version: version)
      case .id(let value):
        output += "[id="
        output += escaped(value.text(), version: version)
        output += "]"
      }
    }
  }

  /// `token` with `~` written `~0`, `/` written `~1` and, from version 2, `[` written `~2`.
  package static func escaped(_ token: String, version: Int) -> String {
    // `~` is 0x7E, `/` 0x2F and `[` 0x5B: most tokens have none and go as they are.
    guard
      token.utf8.contains(where: { $0 == 0x7E || $0 == 0x2F || ($0 == 0x5B && version >= 2) })
    else { return token }
    var text = token.replacingOccurrences(of: "~", with: "~0")
      .replacingOccurrences(of: "/", with: "~1")
    if version >= 2 { text = text.replacingOccurrences(of: "[", with: "~2") }
    return text
  }

  /// `token` with the escapes of ``escaped(_:version:)`` undone.
  private static func unescaped(_ token: Substring, version: Int) -> String {
    guard token.utf8.contains(0x7E) else { return String(token) }
    var text = token.replacingOccurrences(of: "~1", with: "/")
    if version >= 2 { text = text.replacingOccurrences(of: "~2", with: "[") }
    return text.replacingOccurrences(of: "~0", with: "~")
  }

  /// The steps of a path's text in the syntax of format version `version`, or `nil` when
  /// `text` is neither empty nor starts with `/`, or an element step is malformed.
  ///
  /// Read by UTF-8 bytes: `/` and `[` are bytes of their own, and a token may start with a
  /// combining mark, which joins the `/` before it into one character.
  ///
  /// - Complexity: O(length of `text`).
  package static func steps(_ text: String, version: Int = ActionLogFormat.version) -> [PathStep]? {
    guard !text.isEmpty else { return [] }
    let bytes = text.utf8
    guard bytes.first == 0x2F else { return nil }
    var steps: [PathStep] = []
    var position = bytes.startIndex
    while position < bytes.endIndex {
      if bytes[position] == 0x2F {
        let start = bytes.index(after: position)
        let end =
          bytes[start...].firstIndex { $0 == 0x2F || ($0 == 0x5B && version >= 2) }
          ?? bytes.endIndex
        steps.append(.token(unescaped(text[start..<end], version: version)))
        position = end
      } else if bytes[position] == 0x5B, !steps.isEmpty {
        guard let (id, after) = identifier(in: text[position...], version: version) else {
          return nil
        }
        steps.append(.id(id))
        position = after.startIndex
      } else {
        return nil
      }
    }
    return steps
  }

  /// The identifier of the element step at the start of `text`, `[id=…]`, and the text after
  /// it; `nil` when `text` does not start with one.
  ///
  /// - Complexity: O(length of the step).
  package static func elementStep(at text: Substring) -> (id: JSONValue, rest: Substring)? {
    identifier(in: text, version: ActionLogFormat.version).map { ($0.0, $0.1) }
  }

  /// The identifier of the element step at the start of `text`, `[id=…]`, and the text after it.
  private static func identifier(
    in text: Substring, version: Int
  ) -> (JSONValue, Substring)? {
    let bytes = text.utf8
    guard bytes.starts(with: "[id=".utf8) else { return nil }
    let start = bytes.index(bytes.startIndex, offsetBy: 4)
    guard let end = endOfJSON(in: bytes[start...]), end < bytes.endIndex, bytes[end] == 0x5D
    else { return nil }
    let json = unescaped(text[start..<end], version: version)
    // Most identifiers are whole numbers, read without the parser.
    let isWholeNumber =
      json.utf8.allSatisfy { $0 >= 0x30 && $0 <= 0x39 }
      && (json.utf8.first != 0x30 || json.utf8.count == 1)
    guard
      let value = isWholeNumber ? .number(json) : try? JSONParser.parse(json.utf8),
      PathStep.isIdentifier(value)
    else { return nil }
    return (value, text[bytes.index(after: end)...])
  }

  /// Where the JSON string or number at the start of `bytes` ends.
  private static func endOfJSON(in bytes: Substring.UTF8View.SubSequence) -> String.Index? {
    guard let first = bytes.first else { return nil }
    if first == 0x22 {
      var index = bytes.index(after: bytes.startIndex)
      var escaping = false
      while index < bytes.endIndex {
        let byte = bytes[index]
        if escaping {
          escaping = false
        } else if byte == 0x5C {
          escaping = true
        } else if byte == 0x22 {
          return bytes.index(after: index)
        }
        index = bytes.index(after: index)
      }
      return nil
    }
    // Digits, `-`, `+`, `.`, `e` and `E`.
    let end =
      bytes.firstIndex { byte in
        !((byte >= 0x30 && byte <= 0x39) || byte == 0x2D || byte == 0x2B || byte == 0x2E
          || byte == 0x65 || byte == 0x45)
      } ?? bytes.endIndex
    return end == bytes.startIndex ? nil : end
  }
}

extension JSONValue {
  /// The value at `path`, or `nil` when there is none; an element step finds the element by its
  /// `id` wherever it stands.
  ///
  /// - Complexity: O(length of `path`), plus O(elements) for each element step.
  package func value(at path: [PathStep]) -> JSONValue? {
    var hints = PositionHints()
    return value(at: path, hints: &hints)
  }

  /// The value at `path`, as ``value(at:)-([PathStep])`` finds it, looking for an element named by its
  /// identifier first where `hints` last found it, and noting where it is.
  ///
  /// A reader that looks up one path in every state of a log keeps one `hints`: each lookup
  /// then costs O(1) in an array whose element has not moved since the last.
  ///
  /// - Complexity: O(length of `path`), plus O(elements) for an element step whose element
  ///   is not where `hints` says.
  package func value(at path: [PathStep], hints: inout PositionHints) -> JSONValue? {
    var current = self
    for (depth, step) in path.enumerated() {
      switch (current, step) {
      case (.object(let object), .token(let token)):
        guard let member = object[token] else { return nil }
        current = member
      case (.array(let elements), .token(let token)):
        guard let index = JSONPointer.index(token), index < elements.count else { return nil }
        current = elements[index]
      case (.array(let elements), .id(let id)):
        let key = PositionHints.key(path[...depth])
        let hint = hints.positions[key]
        guard case .found(let index) = Self.position(of: id, in: elements, hint: hint) else {
          return nil
        }
        if index != hint { hints.note(index, for: key) }
        current = elements[index]
      default:
        return nil
      }
    }
    return current
  }

  /// The identifier an element carries: its `id` member, when it is an object whose `id` is a
  /// string or a number.
  package var elementIdentifier: JSONValue? {
    guard case .object(let object) = self, let id = object["id"], PathStep.isIdentifier(id)
    else { return nil }
    return id
  }

  /// Where the element whose `id` is `id` stands in `elements`.
  package enum Position: Equatable {
    case found(Int)
    case missing
    /// Several elements carry the identifier.
    case ambiguous
  }

  /// Where the element whose `id` is `id` stands in `elements`; `hint` is looked at first.
  ///
  /// - Complexity: O(1) when the element is at `hint`, O(elements) otherwise.
  package static func position(of id: JSONValue, in elements: [JSONValue], hint: Int? = nil)
    -> Position
  {
    if let hint, hint >= 0, hint < elements.count, elements[hint].elementIdentifier == id {
      return .found(hint)
    }
    var found: Int?
    for (index, element) in elements.enumerated() where element.elementIdentifier == id {
      guard found == nil else { return .ambiguous }
      found = index
    }
    return found.map { .found($0) } ?? .missing
  }
}
