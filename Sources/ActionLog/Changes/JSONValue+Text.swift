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

  /// Appends the value as compact JSON text, as ``text(forHTML:)`` writes it, to `output`.
  ///
  /// - Complexity: O(size of the value).
  func appendText(to output: inout some JSONTextOutput) {
    write(to: &output, indent: nil, level: 0, forHTML: false)
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

  private func write(
    to output: inout some JSONTextOutput, indent: String?, level: Int, forHTML: Bool
  ) {
    switch self {
    case .null: output.write("null")
    case .bool(let value): output.write(value ? "true" : "false")
    case .number(let text): output.write(text)
    case .string(let text): Self.writeQuoted(text, to: &output, forHTML: forHTML)
    case .array(let elements):
      guard !elements.isEmpty else {
        output.write("[]")
        return
      }
      output.write("[")
      for (position, element) in elements.enumerated() {
        if position > 0 { output.write(",") }
        Self.newline(&output, indent, level + 1)
        element.write(to: &output, indent: indent, level: level + 1, forHTML: forHTML)
      }
      Self.newline(&output, indent, level)
      output.write("]")
    case .object(let object):
      guard object.count > 0 else {
        output.write("{}")
        return
      }
      output.write("{")
      for (position, member) in object.members.enumerated() {
        if position > 0 { output.write(",") }
        Self.newline(&output, indent, level + 1)
        Self.writeQuoted(member.key, to: &output, forHTML: forHTML)
        output.write(indent == nil ? ":" : ": ")
        member.value.write(to: &output, indent: indent, level: level + 1, forHTML: forHTML)
      }
      Self.newline(&output, indent, level)
      output.write("}")
    }
  }

  private static func newline(_ output: inout some JSONTextOutput, _ indent: String?, _ level: Int)
  {
    guard let indent else { return }
    output.write("\n" + String(repeating: indent, count: level))
  }

  /// Appends `text` as a JSON string literal, escaping what ``text(forHTML:)`` promises.
  ///
  /// - Complexity: O(length of `text`).
  package static func appendQuoted(_ text: String, to output: inout String, forHTML: Bool) {
    writeQuoted(text, to: &output, forHTML: forHTML)
  }

  /// Writes `text` as a JSON string literal, escaping what ``text(forHTML:)`` promises, to
  /// any output.
  ///
  /// - Complexity: O(length of `text`).
  static func writeQuoted(
    _ text: String, to output: inout some JSONTextOutput, forHTML: Bool
  ) {
    output.write("\"")
    // Printable ASCII other than the quote and the backslash (and, for HTML, `<`, `>`, `&`)
    // goes as it is: most text, in one append.
    let isPlain = text.utf8.allSatisfy { byte in
      byte >= 0x20 && byte < 0x7F && byte != 0x22 && byte != 0x5C
        && !(forHTML && (byte == 0x3C || byte == 0x3E || byte == 0x26))
    }
    if isPlain {
      output.write(text)
      output.write("\"")
      return
    }
    for scalar in text.unicodeScalars {
      switch scalar {
      case "\"": output.write("\\\"")
      case "\\": output.write("\\\\")
      case "\n": output.write("\\n")
      case "\r": output.write("\\r")
      case "\t": output.write("\\t")
      case "<" where forHTML, ">" where forHTML, "&" where forHTML, "\u{2028}", "\u{2029}":
        appendUnicodeEscape(scalar, to: &output)
      case _ where scalar.value < 0x20 || (0x7F...0x9F).contains(scalar.value):
        appendUnicodeEscape(scalar, to: &output)
      default: output.write(scalar: scalar)
      }
    }
    output.write("\"")
  }

  private static func appendUnicodeEscape(
    _ scalar: Unicode.Scalar, to output: inout some JSONTextOutput
  ) {
    let hex = String(scalar.value, radix: 16)
    output.write("\\u" + String(repeating: "0", count: max(0, 4 - hex.count)) + hex)
  }
}

/// Where JSON text is written: a `String`, or the bytes of a log line (which skip the
/// bookkeeping of a string's appends).
package protocol JSONTextOutput {
  /// Appends `text`.
  mutating func write(_ text: String)
  /// Appends one Unicode scalar.
  mutating func write(scalar: Unicode.Scalar)
}

extension String: JSONTextOutput {
  /// Appends one Unicode scalar.
  package mutating func write(scalar: Unicode.Scalar) {
    unicodeScalars.append(scalar)
  }
}

extension Array: JSONTextOutput where Element == UInt8 {
  /// Appends the UTF-8 bytes of `text`.
  ///
  /// - Complexity: O(length of `text`).
  package mutating func write(_ text: String) {
    // From the string's own buffer at once: a native or small string always has one.
    let copied: Void? = text.utf8.withContiguousStorageIfAvailable { append(contentsOf: $0) }
    if copied == nil { append(contentsOf: text.utf8) }
  }

  /// Appends the UTF-8 bytes of one Unicode scalar.
  package mutating func write(scalar: Unicode.Scalar) {
    // Every scalar has an encoding: `encode` is optional only for other encodings' sake.
    if let encoded = UTF8.encode(scalar) { append(contentsOf: encoded) }
  }
}
