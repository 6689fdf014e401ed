import ActionLog

/// The compacted state: every todo as of a journal entry, so that loading reads one small file
/// and the journal entries after it instead of the whole history.
///
/// The format is line-based text, because decoding 10,000 todos with `JSONDecoder` costs more than
/// starting the whole program:
///
/// ```
/// todo-cli snapshot 2
/// seq 1200 offset 98765 next-id 1001 count 2
/// 1<TAB>0<TAB>-<TAB>-<TAB>Buy milk
/// 2<TAB>1<TAB>h<TAB>2026-03-01<TAB>home<TAB>work<TAB>Line one\nline two
/// checksum 0123456789abcdef
/// ```
///
/// A todo's line holds its id, `1` for done or `0`, its priority (`h`, `m`, `l`, or `-` for
/// none), its due date (`YYYY-MM-DD` or `-`), then one field per tag, and its title last.
/// Version 1, which todo-cli 0.1.0 wrote, has only the id, the done flag and the title; it is
/// still read, with no tags, due dates or priorities.
///
/// Numbers are decimal, with a `-` for negatives: ids and `next-id` may be any `Int` (a log from
/// elsewhere can hold negative ids), `offset` and `count` are never negative, and `seq` is a
/// journal entry number, below `Int.max`. The encoder and the decoder accept exactly the same
/// range, so what one writes the other reads.
///
/// Titles and tags escape backslash, newline, carriage return and tab as `\\`, `\n`, `\r`,
/// `\t`, so no field holds a tab. The checksum is the 64-bit FNV-1a hash of every byte before the
/// checksum line.
struct Snapshot: Equatable {
  /// The state after journal entry `seq`.
  var state: AppState
  /// The last journal entry the state includes.
  var seq: Int
  /// The journal's length in bytes just after that entry.
  var offset: Int
}

enum SnapshotCodec {
  private static let magic = Array("todo-cli snapshot 2".utf8)
  /// The first line of the snapshots todo-cli 0.1.0 wrote.
  private static let magicVersion1 = Array("todo-cli snapshot 1".utf8)

  /// The snapshot's bytes.
  ///
  /// - Complexity: O(total length of the titles).
  static func encode(_ snapshot: Snapshot) -> [UInt8] {
    var bytes: [UInt8] = []
    bytes.reserveCapacity(64 + snapshot.state.todos.count * 40)
    bytes += magic
    bytes.append(0x0A)
    bytes += Array(
      ("seq \(snapshot.seq) offset \(snapshot.offset) next-id \(snapshot.state.nextID) "
        + "count \(snapshot.state.todos.count)\n").utf8)
    for todo in snapshot.state.todos {
      appendDecimal(todo.id, to: &bytes)
      bytes.append(0x09)
      bytes.append(todo.done ? 0x31 : 0x30)
      bytes.append(0x09)
      bytes.append(todo.priority.map { $0.rawValue.utf8.first ?? 0x2D } ?? 0x2D)
      bytes.append(0x09)
      bytes += todo.due.map { Array($0.description.utf8) } ?? [0x2D]
      bytes.append(0x09)
      for tag in todo.tags {
        appendEscaped(tag, to: &bytes)
        bytes.append(0x09)
      }
      appendEscaped(todo.title, to: &bytes)
      bytes.append(0x0A)
    }
    let checksum = fnv1a(bytes[...])
    bytes += Array("checksum \(hex(checksum))\n".utf8)
    return bytes
  }

  /// Decodes a snapshot, throwing an error that names `path` and the line at fault.
  ///
  /// - Complexity: O(bytes).
  static func decode(_ bytes: [UInt8], path: String) throws(StorageError) -> Snapshot {
    let (lines, torn) = JSONLines.split(bytes)
    func damaged(_ line: Int?, _ reason: String) -> StorageError {
      .damaged(path: path, line: line, reason: reason)
    }
    guard torn == nil, lines.count >= 3 else {
      throw damaged(nil, "the snapshot is cut short")
    }
    let version1 = bytes[lines[0]].elementsEqual(magicVersion1)
    guard version1 || bytes[lines[0]].elementsEqual(magic) else {
      throw damaged(1, "not a todo-cli snapshot of version 1 or 2")
    }
    let checksumLine = lines[lines.count - 1]
    let expected = "checksum \(hex(fnv1a(bytes[0..<checksumLine.lowerBound])))"
    guard bytes[checksumLine].elementsEqual(expected.utf8) else {
      throw damaged(lines.count, "the checksum does not match the contents")
    }
    let fields = bytes[lines[1]].split(separator: 0x20, omittingEmptySubsequences: false)
    guard fields.count == 8, fields[0].elementsEqual("seq".utf8),
      fields[2].elementsEqual("offset".utf8), fields[4].elementsEqual("next-id".utf8),
      fields[6].elementsEqual("count".utf8)
    else {
      throw damaged(2, "unreadable header")
    }
    // Journal entries are numbered below Int.max (see JournalEntry), so a snapshot covers one.
    guard let seq = decimal(fields[1]), (0..<Int.max).contains(seq) else {
      throw damaged(2, "the entry number is not a whole number from 0 to \(Int.max - 1)")
    }
    guard let offset = decimal(fields[3]), offset >= 0 else {
      throw damaged(2, "the journal offset is not a whole number from 0 to \(Int.max)")
    }
    guard let nextID = decimal(fields[5]) else {
      throw damaged(2, "the next id is not a whole number from \(Int.min) to \(Int.max)")
    }
    guard let count = decimal(fields[7]), count == lines.count - 3 else {
      throw damaged(2, "the todo count does not match the number of todo lines")
    }
    var todos: [Todo] = []
    todos.reserveCapacity(count)
    for number in 2..<(lines.count - 1) {
      let line = bytes[lines[number]]
      guard let todo = version1 ? decodeVersion1Todo(line) : decodeTodo(line) else {
        throw damaged(number + 1, "unreadable todo")
      }
      todos.append(todo)
    }
    let array = TrackedArray(todos)
    guard array.count == todos.count else { throw damaged(nil, "two todos share an id") }
    return Snapshot(state: AppState(todos: array, nextID: nextID), seq: seq, offset: offset)
  }

  private static func appendEscaped(_ text: String, to bytes: inout [UInt8]) {
    for byte in text.utf8 {
      switch byte {
      case 0x5C: bytes += [0x5C, 0x5C]
      case 0x0A: bytes += [0x5C, 0x6E]
      case 0x0D: bytes += [0x5C, 0x72]
      case 0x09: bytes += [0x5C, 0x74]
      default: bytes.append(byte)
      }
    }
  }

  /// A version 2 line: id, done, priority, due date, the tags, the title.
  ///
  /// Fields are found by scanning for tabs rather than by splitting the line, which would
  /// allocate an array per todo: loading 10,000 todos is on every command's path.
  private static func decodeTodo(_ line: ArraySlice<UInt8>) -> Todo? {
    var fields = TabSeparatedFields(line: line)
    guard let idField = fields.next(), let id = decimal(idField),
      let doneField = fields.next(), doneField.count == 1,
      let priorityField = fields.next(), priorityField.count == 1,
      let dueField = fields.next()
    else { return nil }
    let done: Bool
    switch doneField.first {
    case 0x30: done = false
    case 0x31: done = true
    default: return nil
    }
    let priority: Priority?
    switch priorityField.first {
    case 0x2D: priority = nil
    case 0x68: priority = .high
    case 0x6D: priority = .medium
    case 0x6C: priority = .low
    default: return nil
    }
    var due: CalendarDate?
    if !dueField.elementsEqual([0x2D]) {
      guard let text = utf8(dueField), let date = CalendarDate(text)
      else { return nil }
      due = date
    }
    var tags: [String] = []
    while let field = fields.next() {
      guard let tag = text(field) else { return nil }
      tags.append(tag)
    }
    guard let title = text(fields.rest) else { return nil }
    return Todo(id: id, title: title, done: done, tags: tags, due: due, priority: priority)
  }

  /// The fields of a line up to each tab, then what follows the last tab.
  ///
  /// A value rather than a nested function over a captured index: the capture put the index in
  /// a box whose every access was checked for exclusivity at run time.
  private struct TabSeparatedFields {
    let line: ArraySlice<UInt8>
    var start: Int

    init(line: ArraySlice<UInt8>) {
      self.line = line
      start = line.startIndex
    }

    /// The next field up to a tab, or `nil` when no tab follows.
    mutating func next() -> ArraySlice<UInt8>? {
      guard let tab = line[start...].firstIndex(of: 0x09) else { return nil }
      defer { start = tab + 1 }
      return line[start..<tab]
    }

    /// What follows the last field returned.
    var rest: ArraySlice<UInt8> { line[start...] }
  }

  /// The text of an escaped field, or `nil` if its escapes or its UTF-8 are broken.
  private static func text(_ field: ArraySlice<UInt8>) -> String? {
    guard field.contains(0x5C) else { return utf8(field) }
    guard let unescaped = unescape(field) else { return nil }
    return utf8(unescaped[...])
  }

  /// The string `bytes` spell, or `nil` if they are not valid UTF-8.
  ///
  /// ASCII, which most titles and tags are, is valid UTF-8 as it stands, so it is decoded
  /// without validation: `String(validating:as:)` is generic and instantiated type metadata at
  /// every call, a sixth of the time `todo-cli` took to load 10,000 todos.
  private static func utf8(_ bytes: ArraySlice<UInt8>) -> String? {
    guard bytes.allSatisfy({ $0 < 0x80 }) else { return String(validating: bytes, as: UTF8.self) }
    return String(decoding: bytes, as: UTF8.self)
  }

  /// A version 1 line: id, done, title.
  private static func decodeVersion1Todo(_ line: ArraySlice<UInt8>) -> Todo? {
    guard let tab = line.firstIndex(of: 0x09), let id = decimal(line[..<tab]) else { return nil }
    let index = tab
    guard line.endIndex - index >= 3, line[index + 2] == 0x09 else { return nil }
    let done: Bool
    switch line[index + 1] {
    case 0x30: done = false
    case 0x31: done = true
    default: return nil
    }
    guard let title = text(line[(index + 3)...]) else { return nil }
    return Todo(id: id, title: title, done: done)
  }

  private static func unescape(_ bytes: ArraySlice<UInt8>) -> [UInt8]? {
    var output: [UInt8] = []
    output.reserveCapacity(bytes.count)
    var escaping = false
    for byte in bytes {
      if escaping {
        switch byte {
        case 0x5C: output.append(0x5C)
        case 0x6E: output.append(0x0A)
        case 0x72: output.append(0x0D)
        case 0x74: output.append(0x09)
        default: return nil
        }
        escaping = false
      } else if byte == 0x5C {
        escaping = true
      } else {
        output.append(byte)
      }
    }
    return escaping ? nil : output
  }

  private static func appendDecimal(_ value: Int, to bytes: inout [UInt8]) {
    bytes += Array(String(value).utf8)
  }

  /// The integer written in `bytes`, or `nil` if they hold anything else.
  ///
  /// The form is what ``appendDecimal(_:to:)`` writes: an optional `-` and at least one digit,
  /// nothing else. `nil` for any other bytes, or for a value outside
  /// `Int.min...Int.max`, so that a damaged file is reported and never traps.
  ///
  /// - Complexity: O(bytes).
  static func decimal(_ bytes: ArraySlice<UInt8>) -> Int? {
    var index = bytes.startIndex
    let negative = index < bytes.endIndex && bytes[index] == 0x2D
    if negative { index += 1 }
    guard index < bytes.endIndex else { return nil }
    var value = 0
    while index < bytes.endIndex {
      let digit = Int(bytes[index]) - 0x30
      guard (0...9).contains(digit) else { return nil }
      // Accumulating towards the sign reaches Int.min, whose magnitude Int.max cannot hold.
      let (shifted, overflowA) = value.multipliedReportingOverflow(by: 10)
      let (next, overflowB) =
        negative
        ? shifted.subtractingReportingOverflow(digit) : shifted.addingReportingOverflow(digit)
      guard !overflowA, !overflowB else { return nil }
      value = next
      index += 1
    }
    return value
  }

  /// The 64-bit FNV-1a hash of `bytes`.
  ///
  /// - Complexity: O(bytes).
  static func fnv1a(_ bytes: ArraySlice<UInt8>) -> UInt64 {
    var hash: UInt64 = 0xcbf2_9ce4_8422_2325
    for byte in bytes {
      hash ^= UInt64(byte)
      hash &*= 0x0000_0100_0000_01b3
    }
    return hash
  }

  private static func hex(_ value: UInt64) -> String {
    let digits = String(value, radix: 16)
    return String(repeating: "0", count: 16 - digits.count) + digits
  }
}
