/// Parses JSON text into a ``JSONValue``, with limits that a hostile file cannot get around.
///
/// The parser is recursive descent with a depth limit, so no input can exhaust the stack; it
/// accepts exactly RFC 8259 JSON and names the byte offset of the first fault.
package struct JSONParser {
  /// Why a text is not JSON.
  package struct Failure: Error, Equatable, Sendable, CustomStringConvertible {
    /// The byte offset of the fault, from 0.
    package var offset: Int
    /// What is wrong there.
    package var reason: String

    /// Creates a failure at `offset`.
    package init(offset: Int, reason: String) {
      self.offset = offset
      self.reason = reason
    }

    /// `reason at byte offset`.
    package var description: String { "\(reason) at byte \(offset)" }
  }

  /// How deep arrays and objects may nest.
  package static let maximumDepth = 512

  private let bytes: [UInt8]
  private var index: Int
  private let end: Int

  private init(_ bytes: [UInt8], start: Int, end: Int) {
    self.bytes = bytes
    self.index = start
    self.end = end
  }

  /// Parses `bytes[range]` (all of `bytes` by default) as one JSON value, surrounded by
  /// whitespace only.
  ///
  /// - Complexity: O(length of the text).
  package static func parse(
    _ bytes: [UInt8], in range: Range<Int>? = nil
  ) throws(Failure) -> JSONValue {
    let range = range ?? 0..<bytes.count
    var parser = JSONParser(bytes, start: range.lowerBound, end: range.upperBound)
    parser.skipWhitespace()
    let value = try parser.parseValue(depth: 0)
    parser.skipWhitespace()
    guard parser.index == parser.end else { throw parser.failure("text after the value") }
    return value
  }

  /// Parses UTF-8 `text` as one JSON value.
  ///
  /// - Complexity: O(length of the text).
  package static func parse(_ text: some Collection<UInt8>) throws(Failure) -> JSONValue {
    try parse([UInt8](text))
  }

  private func failure(_ reason: String) -> Failure {
    Failure(offset: index, reason: reason)
  }

  private mutating func skipWhitespace() {
    while index < end {
      switch bytes[index] {
      case 0x20, 0x09, 0x0A, 0x0D: index += 1
      default: return
      }
    }
  }

  private mutating func parseValue(depth: Int) throws(Failure) -> JSONValue {
    guard index < end else { throw failure("unexpected end of the text") }
    switch bytes[index] {
    case UInt8(ascii: "{"): return try parseObject(depth: depth + 1)
    case UInt8(ascii: "["): return try parseArray(depth: depth + 1)
    case UInt8(ascii: "\""): return .string(try parseString())
    case UInt8(ascii: "t"): return try parseLiteral("true", .bool(true))
    case UInt8(ascii: "f"): return try parseLiteral("false", .bool(false))
    case UInt8(ascii: "n"): return try parseLiteral("null", .null)
    case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"): return try parseNumber()
    default: throw failure("unexpected character")
    }
  }

  private mutating func parseLiteral(_ word: String, _ value: JSONValue) throws(Failure)
    -> JSONValue
  {
    for byte in word.utf8 {
      guard index < end, bytes[index] == byte else { throw failure("invalid literal") }
      index += 1
    }
    return value
  }

  private mutating func parseObject(depth: Int) throws(Failure) -> JSONValue {
    guard depth <= Self.maximumDepth else {
      throw failure("nested deeper than \(Self.maximumDepth) levels")
    }
    index += 1
    var object = JSONObject()
    skipWhitespace()
    if index < end, bytes[index] == UInt8(ascii: "}") {
      index += 1
      return .object(object)
    }
    while true {
      skipWhitespace()
      guard index < end, bytes[index] == UInt8(ascii: "\"") else {
        throw failure("expected a key in quotes")
      }
      let key = try parseString()
      skipWhitespace()
      guard index < end, bytes[index] == UInt8(ascii: ":") else { throw failure("expected \":\"") }
      index += 1
      skipWhitespace()
      object[key] = try parseValue(depth: depth)
      skipWhitespace()
      guard index < end else { throw failure("unexpected end of the text") }
      if bytes[index] == UInt8(ascii: ",") {
        index += 1
      } else if bytes[index] == UInt8(ascii: "}") {
        index += 1
        return .object(object)
      } else {
        throw failure("expected \",\" or \"}\"")
      }
    }
  }

  private mutating func parseArray(depth: Int) throws(Failure) -> JSONValue {
    guard depth <= Self.maximumDepth else {
      throw failure("nested deeper than \(Self.maximumDepth) levels")
    }
    index += 1
    var elements: [JSONValue] = []
    skipWhitespace()
    if index < end, bytes[index] == UInt8(ascii: "]") {
      index += 1
      return .array(elements)
    }
    while true {
      skipWhitespace()
      elements.append(try parseValue(depth: depth))
      skipWhitespace()
      guard index < end else { throw failure("unexpected end of the text") }
      if bytes[index] == UInt8(ascii: ",") {
        index += 1
      } else if bytes[index] == UInt8(ascii: "]") {
        index += 1
        return .array(elements)
      } else {
        throw failure("expected \",\" or \"]\"")
      }
    }
  }

  private mutating func parseNumber() throws(Failure) -> JSONValue {
    let start = index
    if bytes[index] == UInt8(ascii: "-") { index += 1 }
    guard index < end, isDigit(bytes[index]) else { throw failure("invalid number") }
    if bytes[index] == UInt8(ascii: "0") {
      index += 1
    } else {
      skipDigits()
    }
    if index < end, bytes[index] == UInt8(ascii: ".") {
      index += 1
      guard index < end, isDigit(bytes[index]) else { throw failure("invalid number") }
      skipDigits()
    }
    if index < end, bytes[index] == UInt8(ascii: "e") || bytes[index] == UInt8(ascii: "E") {
      index += 1
      if index < end, bytes[index] == UInt8(ascii: "+") || bytes[index] == UInt8(ascii: "-") {
        index += 1
      }
      guard index < end, isDigit(bytes[index]) else { throw failure("invalid number") }
      skipDigits()
    }
    return .number(String(decoding: bytes[start..<index], as: UTF8.self))
  }

  private func isDigit(_ byte: UInt8) -> Bool {
    byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9")
  }

  private mutating func skipDigits() {
    while index < end, isDigit(bytes[index]) { index += 1 }
  }

  private mutating func parseString() throws(Failure) -> String {
    index += 1
    let start = index
    // Most strings hold no escape: their bytes are the string's UTF-8, decoded once (invalid
    // bytes read as U+FFFD).
    while index < end {
      let byte = bytes[index]
      if byte == UInt8(ascii: "\"") {
        let string = String(decoding: bytes[start..<index], as: UTF8.self)
        index += 1
        return string
      }
      if byte < 0x20 { throw failure("control character in a string") }
      if byte == UInt8(ascii: "\\") { return try parseEscapedString(from: start) }
      index += 1
    }
    throw failure("unterminated string")
  }

  /// The rest of a string that holds an escape, from `start`, its first byte, with `index` at
  /// its first backslash: the runs' bytes and each escaped scalar's UTF-8, decoded once.
  ///
  /// The same string as decoding each run on its own: an escape gives a whole, well-formed
  /// scalar, so it neither completes a run's unfinished sequence nor is absorbed by one, and the
  /// decoder replaces an unfinished sequence the same way whether a new scalar or the end
  /// follows it.
  private mutating func parseEscapedString(from start: Int) throws(Failure) -> String {
    var utf8: [UInt8] = []
    var runStart = start
    while index < end {
      let byte = bytes[index]
      if byte == UInt8(ascii: "\"") {
        utf8.append(contentsOf: bytes[runStart..<index])
        index += 1
        return String(decoding: utf8, as: UTF8.self)
      }
      if byte < 0x20 { throw failure("control character in a string") }
      if byte == UInt8(ascii: "\\") {
        utf8.append(contentsOf: bytes[runStart..<index])
        index += 1
        utf8.append(contentsOf: try parseEscape().utf8)
        runStart = index
        continue
      }
      index += 1
    }
    throw failure("unterminated string")
  }

  private mutating func parseEscape() throws(Failure) -> Unicode.Scalar {
    guard index < end else { throw failure("unterminated string") }
    let byte = bytes[index]
    index += 1
    switch byte {
    case UInt8(ascii: "\""): return "\""
    case UInt8(ascii: "\\"): return "\\"
    case UInt8(ascii: "/"): return "/"
    case UInt8(ascii: "b"): return "\u{8}"
    case UInt8(ascii: "f"): return "\u{C}"
    case UInt8(ascii: "n"): return "\n"
    case UInt8(ascii: "r"): return "\r"
    case UInt8(ascii: "t"): return "\t"
    case UInt8(ascii: "u"):
      let first = try parseHex4()
      if (0xD800..<0xDC00).contains(first), index + 1 < end, bytes[index] == UInt8(ascii: "\\"),
        bytes[index + 1] == UInt8(ascii: "u")
      {
        let save = index
        index += 2
        let second = try parseHex4()
        if (0xDC00..<0xE000).contains(second),
          let scalar = Unicode.Scalar(0x10000 + ((first - 0xD800) << 10) + (second - 0xDC00))
        {
          return scalar
        }
        index = save
      }
      // A lone surrogate cannot be a scalar: it reads as U+FFFD, as invalid UTF-8 does.
      return Unicode.Scalar(first) ?? "\u{FFFD}"
    default:
      throw failure("invalid escape")
    }
  }

  private mutating func parseHex4() throws(Failure) -> UInt32 {
    var value: UInt32 = 0
    for _ in 0..<4 {
      guard index < end else { throw failure("invalid \\u escape") }
      let byte = bytes[index]
      let digit: UInt32
      switch byte {
      case UInt8(ascii: "0")...UInt8(ascii: "9"): digit = UInt32(byte - UInt8(ascii: "0"))
      case UInt8(ascii: "a")...UInt8(ascii: "f"): digit = UInt32(byte - UInt8(ascii: "a") + 10)
      case UInt8(ascii: "A")...UInt8(ascii: "F"): digit = UInt32(byte - UInt8(ascii: "A") + 10)
      default: throw failure("invalid \\u escape")
      }
      value = value << 4 | digit
      index += 1
    }
    return value
  }
}
