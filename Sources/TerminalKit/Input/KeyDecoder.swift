/// Turns the bytes read from a terminal into key presses.
///
/// Decoding is a pure function of the bytes: no timer decides whether an Escape byte starts a
/// sequence. An `ESC` that is the last byte of a read is the Escape key, because a terminal writes
/// an escape sequence in one piece, while a person types Escape on its own. What cannot be decided
/// yet (a UTF-8 character or a `CSI` sequence cut by the end of a read) waits for the next read.
///
/// Between the bracketed-paste marks `ESC [200~` and `ESC [201~` every byte is text: the
/// characters come out as ``Key/pasted(_:)``, a line break or a tab as a pasted space, and other
/// control bytes except Ctrl-C are dropped, so a pasted `ESC` or Enter cannot act as a key.
package struct KeyDecoder: Sendable {
  private var pending: [UInt8] = []
  /// Whether the bytes are inside a bracketed paste.
  private var pasting = false
  private static let pasteEnd = Array("\u{1B}[201~".utf8)

  /// Creates a decoder with nothing pending.
  package init() {}

  /// Whether bytes of an unfinished character or sequence wait for the next read.
  package var hasPendingBytes: Bool { !pending.isEmpty }

  /// Decodes the bytes of one read, together with any unfinished bytes of the previous one.
  ///
  /// - Complexity: O(bytes).
  package mutating func decode(_ chunk: some Sequence<UInt8>) -> [Key] {
    let bytes = pending + Array(chunk)
    pending = []
    var keys: [Key] = []
    var text = String.UnicodeScalarView()
    var index = 0

    func flushText() {
      guard !text.isEmpty else { return }
      keys.append(contentsOf: String(text).map(pasting ? Key.pasted : Key.character))
      text = String.UnicodeScalarView()
    }

    while index < bytes.count {
      let byte = bytes[index]
      if pasting, byte < 0x20 || byte == 0x7F {
        if byte == 0x1B {
          let available = bytes[index...].prefix(Self.pasteEnd.count)
          if available.elementsEqual(Self.pasteEnd) {
            flushText()
            pasting = false
            index += Self.pasteEnd.count
            continue
          }
          if Self.pasteEnd.starts(with: available) {
            flushText()
            pending = Array(bytes[index...])
            return keys
          }
        } else if byte == 0x03 {
          // Ctrl-C still quits, so a paste whose end mark never comes cannot trap the user.
          flushText()
          keys.append(.interrupt)
        } else if byte == 0x0D || byte == 0x0A || byte == 0x09 {
          // CRLF is one line break, and a line break joins the lines with a space.
          if !(byte == 0x0A && index > 0 && bytes[index - 1] == 0x0D) { text.append(" ") }
        }
        index += 1
        continue
      }
      if byte >= 0x20 && byte != 0x7F {
        switch Self.scalar(in: bytes, at: index) {
        case .complete(let scalar, let length):
          text.append(scalar)
          index += length
        case .incomplete:
          flushText()
          pending = Array(bytes[index...])
          return keys
        }
        continue
      }
      flushText()
      if byte == 0x1B {
        switch Self.escapeSequence(in: bytes, at: index) {
        case .complete(.pasteStart, let length):
          pasting = true
          index += length
        case .complete(.key(let key), let length):
          keys.append(key)
          index += length
        case .incomplete:
          pending = Array(bytes[index...])
          return keys
        }
        continue
      }
      keys.append(Self.controlKey(byte))
      // A terminal in raw mode sends CR for Enter; a pasted CRLF is still one line break.
      if byte == 0x0D, index + 1 < bytes.count, bytes[index + 1] == 0x0A { index += 1 }
      index += 1
    }
    flushText()
    return keys
  }

  /// What an escape sequence decodes to: a key, or the start of a bracketed paste.
  private enum EscapeResult: Equatable {
    case key(Key)
    case pasteStart
  }

  private enum Step<Value> {
    case complete(Value, length: Int)
    case incomplete
  }

  private static func controlKey(_ byte: UInt8) -> Key {
    switch byte {
    case 0x0D, 0x0A: .enter
    case 0x7F, 0x08: .backspace
    case 0x09: .tab
    case 0x03: .interrupt
    default: .control(byte)
    }
  }

  /// Decodes one UTF-8 scalar; an invalid byte becomes U+FFFD so bad input never stops decoding.
  private static func scalar(in bytes: [UInt8], at start: Int) -> Step<Unicode.Scalar> {
    let lead = bytes[start]
    let length: Int
    switch lead {
    case 0x00...0x7F: length = 1
    case 0xC2...0xDF: length = 2
    case 0xE0...0xEF: length = 3
    case 0xF0...0xF4: length = 4
    default: return .complete("\u{FFFD}", length: 1)
    }
    var value = length == 1 ? UInt32(lead) : UInt32(lead) & (0xFF >> (length + 1))
    for offset in 1..<length {
      guard start + offset < bytes.count else { return .incomplete }
      let continuation = bytes[start + offset]
      guard continuation & 0xC0 == 0x80 else { return .complete("\u{FFFD}", length: offset) }
      value = value << 6 | UInt32(continuation & 0x3F)
    }
    guard let scalar = Unicode.Scalar(value), Self.isShortestForm(value, length: length) else {
      return .complete("\u{FFFD}", length: length)
    }
    return .complete(scalar, length: length)
  }

  private static func isShortestForm(_ value: UInt32, length: Int) -> Bool {
    switch length {
    case 3: value >= 0x800
    case 4: value >= 0x10000 && value <= 0x10FFFF
    default: true
    }
  }

  /// Decodes what starts with `ESC`: a lone Escape, a `CSI` or `SS3` sequence, or Escape followed
  /// by an ordinary key (which is how Alt-modified keys arrive; both keys are delivered).
  private static func escapeSequence(in bytes: [UInt8], at start: Int) -> Step<EscapeResult> {
    let next = start + 1
    guard next < bytes.count else { return .complete(.key(.escape), length: 1) }
    switch bytes[next] {
    case UInt8(ascii: "["):
      return controlSequence(in: bytes, parametersAt: next + 1, start: start)
    case UInt8(ascii: "O"):
      guard next + 1 < bytes.count else { return .incomplete }
      return .complete(.key(finalKey(bytes[next + 1], parameters: [])), length: 3)
    default:
      return .complete(.key(.escape), length: 1)
    }
  }

  /// The longest control sequence waited for: real keys send a handful of bytes, so anything
  /// longer is pasted text that happens to follow an `ESC [`, and holding it back would grow
  /// without bound and rescan it on every read.
  private static let longestSequence = 32

  /// Decodes `ESC [ parameters intermediates final`, as ECMA-48 lays it out.
  private static func controlSequence(
    in bytes: [UInt8], parametersAt first: Int, start: Int
  ) -> Step<EscapeResult> {
    var index = first
    while index < bytes.count {
      guard index - start < longestSequence else { return .complete(.key(.escape), length: 1) }
      let byte = bytes[index]
      switch byte {
      case 0x20...0x3F:
        index += 1
      case 0x40...0x7E:
        let parameters = bytes[first..<index]
        let length = index - start + 1
        if byte == UInt8(ascii: "~"), parameters.elementsEqual("200".utf8) {
          return .complete(.pasteStart, length: length)
        }
        return .complete(.key(finalKey(byte, parameters: parameters)), length: length)
      default:
        // Not a valid sequence: deliver the Escape, let the rest decode as ordinary bytes.
        return .complete(.key(.escape), length: 1)
      }
    }
    return .incomplete
  }

  private static func finalKey(_ final: UInt8, parameters: ArraySlice<UInt8>) -> Key {
    switch final {
    case UInt8(ascii: "A"): return .up
    case UInt8(ascii: "B"): return .down
    case UInt8(ascii: "C"): return .right
    case UInt8(ascii: "D"): return .left
    case UInt8(ascii: "H"): return .home
    case UInt8(ascii: "F"): return .end
    case UInt8(ascii: "~"):
      let number = parameters.prefix { $0 != UInt8(ascii: ";") }
      switch String(decoding: number, as: UTF8.self) {
      case "1", "7": return .home
      case "4", "8": return .end
      case "3": return .delete
      default: return .unsupported
      }
    default: return .unsupported
    }
  }
}
