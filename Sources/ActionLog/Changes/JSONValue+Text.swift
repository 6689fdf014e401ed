extension JSONValue {
  /// The value as compact JSON text.
  ///
  /// Every control character, DEL and the C1 controls (U+0080–U+009F) are written as `\u`
  /// escapes, so the text can go to a terminal without driving it; with `forHTML`, `<`, `>`
  /// and `&` are escaped too, so it can sit inside a `<script>` element.
  ///
  /// - Complexity: O(size of the value).
  public func text(forHTML: Bool = false) -> String {
    var output = ""
    write(to: &output, indent: nil, level: 0, forHTML: forHTML)
    return output
  }

  /// The value as JSON text indented by two spaces, one member or element per line, with the
  /// same escapes as ``text(forHTML:)``.
  ///
  /// - Complexity: O(size of the value).
  public var indentedText: String {
    var output = ""
    write(to: &output, indent: "  ", level: 0, forHTML: false)
    return output
  }

  private func write(to output: inout String, indent: String?, level: Int, forHTML: Bool) {
    switch self {
    case .null: output += "null"
    case .bool(let value): output += value ? "true" : "false"
    case .number(let text): output += text
    case .string(let text): Self.appendQuoted(text, to: &output, forHTML: forHTML)
    case .array(let elements):
      guard !elements.isEmpty else {
        output += "[]"
        return
      }
      output += "["
      for (position, element) in elements.enumerated() {
        if position > 0 { output += "," }
        Self.newline(&output, indent, level + 1)
        element.write(to: &output, indent: indent, level: level + 1, forHTML: forHTML)
      }
      Self.newline(&output, indent, level)
      output += "]"
    case .object(let object):
      guard object.count > 0 else {
        output += "{}"
        return
      }
      output += "{"
      for (position, member) in object.members.enumerated() {
        if position > 0 { output += "," }
        Self.newline(&output, indent, level + 1)
        Self.appendQuoted(member.key, to: &output, forHTML: forHTML)
        output += indent == nil ? ":" : ": "
        member.value.write(to: &output, indent: indent, level: level + 1, forHTML: forHTML)
      }
      Self.newline(&output, indent, level)
      output += "}"
    }
  }

  private static func newline(_ output: inout String, _ indent: String?, _ level: Int) {
    guard let indent else { return }
    output += "\n" + String(repeating: indent, count: level)
  }

  /// Appends `text` as a JSON string literal, escaping what ``text(forHTML:)`` promises.
  ///
  /// - Complexity: O(length of `text`).
  package static func appendQuoted(_ text: String, to output: inout String, forHTML: Bool) {
    output += "\""
    for scalar in text.unicodeScalars {
      switch scalar {
      case "\"": output += "\\\""
      case "\\": output += "\\\\"
      case "\n": output += "\\n"
      case "\r": output += "\\r"
      case "\t": output += "\\t"
      case "<" where forHTML, ">" where forHTML, "&" where forHTML, "\u{2028}", "\u{2029}":
        appendUnicodeEscape(scalar, to: &output)
      case _ where scalar.value < 0x20 || (0x7F...0x9F).contains(scalar.value):
        appendUnicodeEscape(scalar, to: &output)
      default: output.unicodeScalars.append(scalar)
      }
    }
    output += "\""
  }

  private static func appendUnicodeEscape(_ scalar: Unicode.Scalar, to output: inout String) {
    let hex = String(scalar.value, radix: 16)
    output += "\\u" + String(repeating: "0", count: max(0, 4 - hex.count)) + hex
  }
}
