/// The compacted state: every todo as of a journal entry, so that loading reads one small file
/// and the journal entries after it instead of the whole history.
///
/// The format is line-based text, because decoding 10,000 todos with `JSONDecoder` costs more than
/// starting the whole program:
///
/// ```
/// todo-cli snapshot 1
/// seq 1200 offset 98765 next-id 1001 count 2
/// 1<TAB>0<TAB>Buy milk
/// 2<TAB>1<TAB>Line one\nline two
/// checksum 0123456789abcdef
/// ```
///
/// Titles escape backslash, newline, carriage return and tab as `\\`, `\n`, `\r`, `\t`. The
/// checksum is the 64-bit FNV-1a hash of every byte before the checksum line.
struct Snapshot: Equatable {
  /// The state after journal entry `seq`.
  var state: AppState
  /// The last journal entry the state includes.
  var seq: Int
  /// The journal's length in bytes just after that entry.
  var offset: Int
}

enum SnapshotCodec {
  private static let magic = Array("todo-cli snapshot 1".utf8)

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
      for byte in todo.title.utf8 {
        switch byte {
        case 0x5C: bytes += [0x5C, 0x5C]
        case 0x0A: bytes += [0x5C, 0x6E]
        case 0x0D: bytes += [0x5C, 0x72]
        case 0x09: bytes += [0x5C, 0x74]
        default: bytes.append(byte)
        }
      }
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
    let (lines, torn) = JournalCodec.lines(in: bytes)
    func damaged(_ line: Int?, _ reason: String) -> StorageError {
      .damaged(path: path, line: line, reason: reason)
    }
    guard torn == nil, lines.count >= 3 else {
      throw damaged(nil, "the snapshot is cut short")
    }
    guard bytes[lines[0]].elementsEqual(magic) else {
      throw damaged(1, "not a todo-cli snapshot of version 1")
    }
    let checksumLine = lines[lines.count - 1]
    let expected = "checksum \(hex(fnv1a(bytes[0..<checksumLine.lowerBound])))"
    guard bytes[checksumLine].elementsEqual(expected.utf8) else {
      throw damaged(lines.count, "the checksum does not match the contents")
    }
    let fields = String(decoding: bytes[lines[1]], as: UTF8.self).split(separator: " ")
    guard fields.count == 8, fields[0] == "seq", fields[2] == "offset", fields[4] == "next-id",
      fields[6] == "count", let seq = Int(fields[1]), let offset = Int(fields[3]),
      let nextID = Int(fields[5]), let count = Int(fields[7]), count == lines.count - 3
    else {
      throw damaged(2, "unreadable header")
    }
    var todos: [Todo] = []
    todos.reserveCapacity(count)
    for number in 2..<(lines.count - 1) {
      guard let todo = decodeTodo(bytes[lines[number]]) else {
        throw damaged(number + 1, "unreadable todo")
      }
      todos.append(todo)
    }
    let array = TrackedArray(todos)
    guard array.count == todos.count else { throw damaged(nil, "two todos share an id") }
    return Snapshot(state: AppState(todos: array, nextID: nextID), seq: seq, offset: offset)
  }

  private static func decodeTodo(_ line: ArraySlice<UInt8>) -> Todo? {
    var index = line.startIndex
    var id = 0
    var digits = 0
    while index < line.endIndex, line[index] != 0x09 {
      let digit = Int(line[index]) - 0x30
      guard (0...9).contains(digit), digits < 18 else { return nil }
      id = id * 10 + digit
      digits += 1
      index += 1
    }
    guard digits > 0, line.endIndex - index >= 3, line[index + 2] == 0x09 else { return nil }
    let done: Bool
    switch line[index + 1] {
    case 0x30: done = false
    case 0x31: done = true
    default: return nil
    }
    let titleBytes = line[(index + 3)...]
    let title: String?
    if titleBytes.contains(0x5C) {
      guard let unescaped = unescape(titleBytes) else { return nil }
      title = String(validating: unescaped, as: UTF8.self)
    } else {
      title = String(validating: titleBytes, as: UTF8.self)
    }
    guard let title else { return nil }
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
