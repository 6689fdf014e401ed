/// Text from a store or a log made safe to show on a terminal: control characters are shown, not
/// sent raw.
///
/// A title may hold anything, including escape sequences, when it comes from someone else's log
/// through `replay`. Written raw, `ESC [ 2 J` would clear the screen, and others can retitle the
/// window, move the cursor or, on some terminals, answer back into the input. Every C0 control
/// (U+0000 to U+001F), DEL (U+007F) and every C1 control (U+0080 to U+009F, which some terminals
/// read as the 8-bit forms of ESC sequences) is replaced. Everything else, whatever its script,
/// passes unchanged. Two forms:
///
/// - ``escaped(_:)``, for command output that people copy: `\n`, `\r`, `\t`, `\e` for the
///   common ones and `\u{XX}` for the rest.
/// - ``pictured(_:)``, for the terminal UI, which lays text out by columns: each control becomes
///   one one-column symbol (ESC `␛`, line feed `␊`, DEL `␡`, a C1 control `�`).
package enum TerminalSafeText {
  /// Whether `scalar` is one that a terminal would act on rather than show: Unicode's `Cc`
  /// category, exactly C0, DEL and C1.
  package static func isControl(_ scalar: Unicode.Scalar) -> Bool {
    scalar.value < 0x20 || (0x7F...0x9F).contains(scalar.value)
  }

  /// `text` with each control character replaced by a one-column symbol.
  ///
  /// - Complexity: O(length of `text`); `text` itself is returned when there is nothing to
  ///   replace.
  package static func pictured(_ text: String) -> String {
    guard text.unicodeScalars.contains(where: isControl) else { return text }
    var scalars = String.UnicodeScalarView()
    for scalar in text.unicodeScalars {
      scalars.append(isControl(scalar) ? picture(of: scalar) : scalar)
    }
    return String(scalars)
  }

  /// The symbol that stands for the control character `scalar`: its Unicode control picture for
  /// C0 (U+2400 + code) and DEL, the replacement character for C1, which has no pictures.
  private static func picture(of scalar: Unicode.Scalar) -> Unicode.Scalar {
    switch scalar.value {
    case 0x00..<0x20: Unicode.Scalar(0x2400 + scalar.value) ?? "\u{FFFD}"
    case 0x7F: "\u{2421}"
    default: "\u{FFFD}"
    }
  }

  /// `text` with its control characters escaped.
  ///
  /// - Complexity: O(length of `text`); `text` itself is returned when there is nothing to
  ///   escape.
  package static func escaped(_ text: String) -> String {
    guard text.unicodeScalars.contains(where: isControl) else { return text }
    var output = ""
    output.reserveCapacity(text.utf8.count + 8)
    for scalar in text.unicodeScalars {
      guard isControl(scalar) else {
        output.unicodeScalars.append(scalar)
        continue
      }
      output += escape(for: scalar)
    }
    return output
  }

  /// What stands for the control character `scalar`.
  package static func escape(for scalar: Unicode.Scalar) -> String {
    switch scalar {
    case "\n": return "\\n"
    case "\r": return "\\r"
    case "\t": return "\\t"
    case "\u{1B}": return "\\e"
    default: return "\\u{" + String(scalar.value, radix: 16, uppercase: true) + "}"
    }
  }
}
