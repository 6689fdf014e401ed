extension JSONChange {
  /// The change as a JSON object: `op`, `path` (in the syntax of the newest format version),
  /// then `from`, `index`, `old` and `value` where they apply.
  package var json: JSONValue {
    var object = JSONObject()
    object["op"] = .string(operation.rawValue)
    object["path"] = .string(JSONPath.text(path))
    if let from { object["from"] = .number(String(from)) }
    if let index { object["index"] = .number(String(index)) }
    if let old { object["old"] = old }
    if let value { object["value"] = value }
    return .object(object)
  }

  /// Reads a change written as ``json``, by a log of format version `version`.
  ///
  /// - Throws: ``Mismatch`` naming what is missing or wrong.
  package init(json: JSONValue, version: Int = ActionLogFormat.version) throws(Mismatch) {
    guard case .object(let object) = json else {
      throw Mismatch(path: "", reason: "a change must be a JSON object")
    }
    let names =
      version >= 2
      ? "\"add\", \"remove\", \"replace\" or \"move\"" : "\"add\", \"remove\" or \"replace\""
    guard let name = object["op"]?.stringValue, let operation = Operation(rawValue: name),
      operation != .move || version >= 2
    else {
      throw Mismatch(path: "", reason: "\"op\" must be \(names)")
    }
    guard let pointer = object["path"]?.stringValue,
      let path = JSONPath.steps(pointer, version: version)
    else {
      let example = version >= 2 ? "\"/todos[id=3]/done\"" : "\"/todos/0\""
      throw Mismatch(path: "", reason: "\"path\" must be a path such as \(example)")
    }
    func position(_ key: String) throws(Mismatch) -> Int? {
      guard let number = object[key] else { return nil }
      guard let index = number.intValue, index >= 0 else {
        throw Mismatch(path: pointer, reason: "\"\(key)\" must be a position in the array")
      }
      return index
    }
    let index = try position("index")
    let from = try position("from")
    let old = object["old"]
    let value = object["value"]
    guard operation == .remove || operation == .move || value != nil else {
      throw Mismatch(path: pointer, reason: "\"\(name)\" needs a \"value\"")
    }
    if case .id = path.last {
      guard operation == .replace || operation == .remove || index != nil else {
        throw Mismatch(path: pointer, reason: "\"\(name)\" of an element needs an \"index\"")
      }
    } else if operation == .move {
      throw Mismatch(path: pointer, reason: "a move names an element by its identifier")
    }
    self.init(operation, path, old: old, value: value, index: index, from: from)
  }

  /// The changes as a JSON array.
  package static func json(_ changes: [JSONChange]) -> JSONValue {
    .array(changes.map(\.json))
  }

  /// The changes as compact JSON text: `json(changes).text()`, written without building it.
  ///
  /// - Complexity: O(size of the changes).
  package static func text(_ changes: [JSONChange], version: Int = ActionLogFormat.version)
    -> String
  {
    var output = ""
    appendText(of: changes, to: &output, version: version)
    return output
  }

  /// Appends ``text(_:version:)`` of `changes` to `output`, with paths in the syntax of format
  /// version `version`.
  ///
  /// - Complexity: O(size of the changes).
  package static func appendText(
    of changes: [JSONChange], to output: inout some JSONTextOutput,
    version: Int = ActionLogFormat.version
  ) {
    output.write("[")
    for (position, change) in changes.enumerated() {
      if position > 0 { output.write(",") }
      // Each piece of text that does not vary is written in one go.
      switch change.operation {
      case .add: output.write("{\"op\":\"add\",\"path\":\"")
      case .remove: output.write("{\"op\":\"remove\",\"path\":\"")
      case .replace: output.write("{\"op\":\"replace\",\"path\":\"")
      case .move: output.write("{\"op\":\"move\",\"path\":\"")
      }
      for step in change.path {
        switch step {
        case .token(let token):
          output.write("/")
          appendToken(token, to: &output, version: version)
        case .id(let id):
          output.write("[id=")
          appendToken(id.text(), to: &output, version: version)
          output.write("]")
        }
      }
      output.write("\"")
      if let from = change.from { output.write(",\"from\":" + String(from)) }
      if let index = change.index { output.write(",\"index\":" + String(index)) }
      if let old = change.old {
        output.write(",\"old\":")
        old.appendText(to: &output)
      }
      if let value = change.value {
        output.write(",\"value\":")
        value.appendText(to: &output)
      }
      output.write("}")
    }
    output.write("]")
  }

  /// Appends `token`, escaped as a path's token and then inside a JSON string, to `output`.
  private static func appendToken(
    _ token: String, to output: inout some JSONTextOutput, version: Int
  ) {
    // Letters, digits and most punctuation need no escape, in a path or in JSON.
    let isPlain = token.utf8.allSatisfy { byte in
      byte >= 0x20 && byte < 0x7F && byte != 0x22 && byte != 0x5C && byte != 0x7E
        && byte != 0x2F && byte != 0x5B
    }
    if isPlain {
      output.write(token)
      return
    }
    // By scalars: a token may start with a combining mark, which joins the `/` before it into
    // one character.
    let escaped = JSONPath.escaped(token, version: version)
    var quoted = ""
    JSONValue.writeQuoted(escaped, to: &quoted, forHTML: false)
    var scalars = quoted.unicodeScalars
    scalars.removeFirst()
    scalars.removeLast()
    for scalar in scalars { output.write(scalar: scalar) }
  }
}
