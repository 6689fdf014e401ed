/// Fast JSON string escaping for the hot output paths (`list --json`, snapshots).
package enum JSONText {
  /// `text` as a JSON string literal, quotes included.
  ///
  /// - Complexity: O(length of `text`).
  package static func quoted(_ text: String) -> String {
    var output = "\""
    appendEscaped(text, to: &output)
    output += "\""
    return output
  }

  /// Appends `text`, escaped for the inside of a JSON string, to `output`.
  ///
  /// - Complexity: O(length of `text`).
  package static func appendEscaped(_ text: String, to output: inout String) {
    var needsEscaping = false
    for byte in text.utf8 where byte < 0x20 || byte == 0x22 || byte == 0x5C {
      needsEscaping = true
      break
    }
    guard needsEscaping else {
      output += text
      return
    }
    for scalar in text.unicodeScalars {
      switch scalar {
      case "\"": output += "\\\""
      case "\\": output += "\\\\"
      case "\n": output += "\\n"
      case "\r": output += "\\r"
      case "\t": output += "\\t"
      case let control where control.value < 0x20:
        let hex = String(control.value, radix: 16)
        output += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
      default: output.unicodeScalars.append(scalar)
      }
    }
  }
}
