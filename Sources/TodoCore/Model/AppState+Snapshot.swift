import StatePersistence
import StateStore

/// The journaled store's snapshot of the todos, read in one pass over its bytes.
///
/// The snapshot's line is the JSON that `AppState`'s `Encodable` conformance writes,
/// `{"nextID":…,"todos":[{"id":…,"title":…,"done":…,"tags":…,"due":…,"priority":…}]}`; reading it
/// here rather than through `JSONDecoder` keeps opening a store of 10,000 todos within
/// `todo-cli`'s speed bar (a few times `todo-cli --version`), where `Decoder`'s generic
/// containers cost several times the rest of the command. It accepts what `init(from:)` accepts
/// (keys in any order, unknown keys skipped, `null` for a missing optional field), except that
/// numbers must be written as integers, as every encoder writes them.
extension AppState: SnapshotDecodable {
  /// Reads the state from a snapshot's value line.
  ///
  /// - Throws: ``SnapshotShapeError`` naming the byte offset and what was expected there.
  /// - Complexity: O(length of the line).
  init(snapshotJSON: ArraySlice<UInt8>) throws {
    var scanner = SnapshotScanner(Array(snapshotJSON))
    var todos: [Todo]?
    var nextID: Int?
    try scanner.object { scanner, key in
      if key.spells("todos") {
        var read: [Todo] = []
        // A todo takes at least 30 bytes of JSON: room for all of them at once, no regrowth.
        read.reserveCapacity(scanner.remainingCount / 30)
        try scanner.array { scanner in read.append(try scanner.todo()) }
        todos = read
      } else if key.spells("nextID") {
        nextID = try scanner.integer()
      } else {
        try scanner.skipValue()
      }
    }
    try scanner.end()
    guard let todos, let nextID else {
      throw SnapshotShapeError("the snapshot lacks \(todos == nil ? "\"todos\"" : "\"nextID\"")")
    }
    self.init(todos: TrackedArray(todos), nextID: nextID)
  }
}

/// What is wrong with a snapshot's value line.
struct SnapshotShapeError: Error, CustomStringConvertible {
  let description: String

  init(_ description: String) {
    self.description = description
  }
}

/// Reads JSON values from a snapshot line, one after another, without building a tree.
private struct SnapshotScanner {
  private let bytes: [UInt8]
  private var index = 0

  init(_ bytes: [UInt8]) {
    self.bytes = bytes
  }

  /// How many bytes are left to read.
  var remainingCount: Int { bytes.count - index }

  /// A todo object; see `Todo`'s `Codable` conformance.
  mutating func todo() throws -> Todo {
    var id: Int?
    var title: String?
    var done: Bool?
    var tags: [String] = []
    var due: CalendarDate?
    var priority: Priority?
    try object { scanner, key in
      // Keys are compared as bytes: no string is made for them.
      if key.spells("id") {
        id = try scanner.integer()
      } else if key.spells("title") {
        title = try scanner.string()
      } else if key.spells("done") {
        done = try scanner.bool()
      } else if key.spells("tags") {
        tags = []
        if try !scanner.null() {
          try scanner.array { scanner in tags.append(try scanner.string()) }
        }
      } else if key.spells("due") {
        due = nil
        if try !scanner.null() {
          let text = try scanner.string()
          guard let date = CalendarDate(text) else {
            throw scanner.failure("\"\(text)\" is not a date of the form YYYY-MM-DD")
          }
          due = date
        }
      } else if key.spells("priority") {
        priority = nil
        if try !scanner.null() {
          let text = try scanner.string()
          guard let known = Priority(rawValue: text) else {
            throw scanner.failure("\"\(text)\" is not a priority (high, medium or low)")
          }
          priority = known
        }
      } else {
        try scanner.skipValue()
      }
    }
    guard let id, let title, let done else {
      throw failure(
        "a todo lacks \(id == nil ? "\"id\"" : title == nil ? "\"title\"" : "\"done\"")")
    }
    return Todo(
      id: id, title: title, done: done, tags: Tags.canonical(tags), due: due, priority: priority)
  }

  /// An object, calling `member` with each key's UTF-8 bytes, the scanner standing on its
  /// value.
  mutating func object(_ member: (inout SnapshotScanner, ArraySlice<UInt8>) throws -> Void)
    throws
  {
    try expect(UInt8(ascii: "{"))
    if try take(UInt8(ascii: "}")) { return }
    repeat {
      let key = try keyBytes()
      try expect(UInt8(ascii: ":"))
      try member(&self, key)
    } while try take(UInt8(ascii: ","))
    try expect(UInt8(ascii: "}"))
  }

  /// An array, calling `element` with the scanner standing on each element.
  mutating func array(_ element: (inout SnapshotScanner) throws -> Void) throws {
    try expect(UInt8(ascii: "["))
    if try take(UInt8(ascii: "]")) { return }
    repeat {
      try element(&self)
    } while try take(UInt8(ascii: ","))
    try expect(UInt8(ascii: "]"))
  }

  /// A key: its bytes as they are when it has no escape (every key this app writes), else
  /// the bytes of its text with the escapes resolved.
  private mutating func keyBytes() throws -> ArraySlice<UInt8> {
    skipWhitespace()
    guard index < bytes.count, bytes[index] == UInt8(ascii: "\"") else {
      throw failure("expected a key")
    }
    let start = index + 1
    var end = start
    while end < bytes.count, bytes[end] > 0x1F, bytes[end] != UInt8(ascii: "\""),
      bytes[end] != UInt8(ascii: "\\")
    {
      end += 1
    }
    if end < bytes.count, bytes[end] == UInt8(ascii: "\"") {
      index = end + 1
      return bytes[start..<end]
    }
    return Array(try string().utf8)[...]
  }

  /// A string, its escapes resolved.
  mutating func string() throws -> String {
    try expect(UInt8(ascii: "\""))
    let start = index
    // The common case: no escape, so the text is the bytes as they are.
    while index < bytes.count, bytes[index] != UInt8(ascii: "\""),
      bytes[index] != UInt8(ascii: "\\")
    {
      guard bytes[index] >= 0x20 else { throw failure("a control character inside a string") }
      index += 1
    }
    guard index < bytes.count else { throw failure("a string that does not end") }
    if bytes[index] == UInt8(ascii: "\"") {
      defer { index += 1 }
      return try validated(bytes[start..<index])
    }
    var scalars = String.UnicodeScalarView()
    scalars.append(contentsOf: try validated(bytes[start..<index]).unicodeScalars)
    while true {
      guard index < bytes.count else { throw failure("a string that does not end") }
      let byte = bytes[index]
      if byte == UInt8(ascii: "\"") {
        index += 1
        return String(scalars)
      }
      if byte == UInt8(ascii: "\\") {
        index += 1
        scalars.append(try escaped())
        continue
      }
      let run = index
      while index < bytes.count, bytes[index] != UInt8(ascii: "\""),
        bytes[index] != UInt8(ascii: "\\")
      {
        guard bytes[index] >= 0x20 else { throw failure("a control character inside a string") }
        index += 1
      }
      scalars.append(contentsOf: try validated(bytes[run..<index]).unicodeScalars)
    }
  }

  /// The character an escape stands for, the scanner standing after its backslash.
  private mutating func escaped() throws -> Unicode.Scalar {
    guard index < bytes.count else { throw failure("a string that does not end") }
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
      let unit = try hexUnit()
      if UTF16.isLeadSurrogate(unit) {
        guard index + 1 < bytes.count, bytes[index] == UInt8(ascii: "\\"),
          bytes[index + 1] == UInt8(ascii: "u")
        else { throw failure("a lone surrogate \\u escape") }
        index += 2
        let trail = try hexUnit()
        guard UTF16.isTrailSurrogate(trail),
          let scalar = Unicode.Scalar(
            0x10000 + ((UInt32(unit) - 0xD800) << 10) + (UInt32(trail) - 0xDC00))
        else { throw failure("a lone surrogate \\u escape") }
        return scalar
      }
      guard let scalar = Unicode.Scalar(unit) else {
        throw failure("a lone surrogate \\u escape")
      }
      return scalar
    default:
      throw failure("an unknown escape")
    }
  }

  /// Four hexadecimal digits.
  private mutating func hexUnit() throws -> UInt16 {
    guard index + 4 <= bytes.count else { throw failure("a \\u escape cut short") }
    var unit: UInt16 = 0
    for _ in 0..<4 {
      let byte = bytes[index]
      let digit: UInt8
      switch byte {
      case UInt8(ascii: "0")...UInt8(ascii: "9"): digit = byte - UInt8(ascii: "0")
      case UInt8(ascii: "a")...UInt8(ascii: "f"): digit = byte - UInt8(ascii: "a") + 10
      case UInt8(ascii: "A")...UInt8(ascii: "F"): digit = byte - UInt8(ascii: "A") + 10
      default: throw failure("a \\u escape with a character that is not hexadecimal")
      }
      unit = unit << 4 | UInt16(digit)
      index += 1
    }
    return unit
  }

  /// `bytes` as text, if they are valid UTF-8.
  private func validated(_ bytes: ArraySlice<UInt8>) throws -> String {
    // ASCII is valid UTF-8: decoding it needs no validation, which costs most of the read.
    if bytes.allSatisfy({ $0 < 0x80 }) { return String(decoding: bytes, as: UTF8.self) }
    guard let text = String(validating: bytes, as: UTF8.self) else {
      throw failure("a string that is not valid UTF-8")
    }
    return text
  }

  /// A whole number within `Int`'s range, written without a fraction or an exponent.
  mutating func integer() throws -> Int {
    skipWhitespace()
    let negative = index < bytes.count && bytes[index] == UInt8(ascii: "-")
    if negative { index += 1 }
    let start = index
    var value = 0
    while index < bytes.count, (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(bytes[index]) {
      let digit = Int(bytes[index] - UInt8(ascii: "0"))
      let (times, timesOverflow) = value.multipliedReportingOverflow(by: 10)
      let (next, nextOverflow) =
        negative ? times.subtractingReportingOverflow(digit) : times.addingReportingOverflow(digit)
      guard !timesOverflow, !nextOverflow else { throw failure("a number outside Int's range") }
      value = next
      index += 1
    }
    guard index > start else { throw failure("expected a whole number") }
    if index < bytes.count,
      [UInt8(ascii: "."), UInt8(ascii: "e"), UInt8(ascii: "E")].contains(bytes[index])
    {
      throw failure("expected a whole number, without a fraction or an exponent")
    }
    return value
  }

  /// `true` or `false`.
  mutating func bool() throws -> Bool {
    skipWhitespace()
    if literal("true") { return true }
    if literal("false") { return false }
    throw failure("expected true or false")
  }

  /// Whether the next value is `null`, which is then read.
  mutating func null() throws -> Bool {
    skipWhitespace()
    return literal("null")
  }

  /// Skips one value of any kind.
  mutating func skipValue(depth: Int = 0) throws {
    guard depth < 64 else { throw failure("values nested too deep") }
    skipWhitespace()
    guard index < bytes.count else { throw failure("expected a value") }
    switch bytes[index] {
    case UInt8(ascii: "{"): try object { scanner, _ in try scanner.skipValue(depth: depth + 1) }
    case UInt8(ascii: "["): try array { scanner in try scanner.skipValue(depth: depth + 1) }
    case UInt8(ascii: "\""): _ = try string()
    case UInt8(ascii: "t"), UInt8(ascii: "f"): _ = try bool()
    case UInt8(ascii: "n"):
      guard try null() else { throw failure("expected a value") }
    default:
      // A number: its characters, checked no further than a number that is not read needs.
      let start = index
      while index < bytes.count, Self.numberCharacters.contains(bytes[index]) { index += 1 }
      guard index > start else { throw failure("expected a value") }
    }
  }

  private static let numberCharacters = Set("-+.eE0123456789".utf8)

  /// Checks that only whitespace is left.
  mutating func end() throws {
    skipWhitespace()
    guard index == bytes.count else { throw failure("text after the value") }
  }

  private mutating func skipWhitespace() {
    while index < bytes.count {
      switch bytes[index] {
      case UInt8(ascii: " "), UInt8(ascii: "\n"), UInt8(ascii: "\r"), UInt8(ascii: "\t"):
        index += 1
      default:
        return
      }
    }
  }

  private mutating func expect(_ byte: UInt8) throws {
    guard try take(byte) else {
      throw failure("expected \"\(Character(Unicode.Scalar(byte)))\"")
    }
  }

  /// Reads `byte` if it comes next, after whitespace.
  private mutating func take(_ byte: UInt8) throws -> Bool {
    skipWhitespace()
    guard index < bytes.count, bytes[index] == byte else { return false }
    index += 1
    return true
  }

  private mutating func literal(_ word: StaticString) -> Bool {
    let count = word.utf8CodeUnitCount
    guard index + count <= bytes.count else { return false }
    let matches = word.withUTF8Buffer { bytes[index..<index + count].elementsEqual($0) }
    if matches { index += count }
    return matches
  }

  func failure(_ reason: String) -> SnapshotShapeError {
    SnapshotShapeError("byte \(index): \(reason)")
  }
}

extension ArraySlice<UInt8> {
  /// Whether these bytes are exactly `word`'s UTF-8: lengths first, so that most keys that
  /// differ are told apart without reading a byte.
  fileprivate func spells(_ word: StaticString) -> Bool {
    guard count == word.utf8CodeUnitCount else { return false }
    return word.withUTF8Buffer { word in
      withUnsafeBufferPointer { bytes in bytes.elementsEqual(word) }
    }
  }
}
