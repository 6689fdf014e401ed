import Foundation
import TerminalKit
import Testing

@testable import TodoCore

@Suite("Numbers from files are range-checked, and every id prints")
struct NumberRangeTests {
  static let extremes = [
    Int.min, Int.min + 1, -1_234_567_890_123_456_789, -5, 0, 1, 1_234_567_890_123_456_789,
    Int.max - 1, Int.max,
  ]

  @Test("The snapshot encoder and decoder accept the same range: every Int id round-trips")
  func snapshotExtremesRoundTrip() throws {
    var state = AppState()
    for (index, id) in Self.extremes.enumerated() {
      AddTodo(id: id, title: "todo \(index)").updateState(&state)
    }
    #expect(state.todos.count == Self.extremes.count)
    for nextID in [Int.min, -1, Int.max] {
      state.nextID = nextID
      for (seq, offset) in [(0, 0), (Int.max - 1, Int.max), (1_234_567_890_123_456_789, 7)] {
        let snapshot = Snapshot(state: state, seq: seq, offset: offset)
        #expect(try SnapshotCodec.decode(SnapshotCodec.encode(snapshot), path: "s") == snapshot)
      }
    }
  }

  /// A snapshot whose header and todo lines are `header` and `todos`, with a valid checksum.
  static func snapshotBytes(header: String, todos: [String]) -> [UInt8] {
    var bytes = Array(("todo-cli snapshot 1\n" + header + "\n").utf8)
    for todo in todos { bytes += Array((todo + "\n").utf8) }
    let checksum = String(SnapshotCodec.fnv1a(bytes[...]), radix: 16)
    bytes += Array(
      ("checksum " + String(repeating: "0", count: 16 - checksum.count) + checksum + "\n").utf8)
    return bytes
  }

  @Test("Numbers outside the range are damage naming the file and line, never a trap")
  func outOfRangeNumbersAreDamage() {
    let cases: [(header: String, todos: [String], line: Int)] = [
      ("seq -1 offset 0 next-id 1 count 0", [], 2),
      ("seq 0 offset -5 next-id 1 count 0", [], 2),
      ("seq 9223372036854775808 offset 0 next-id 1 count 0", [], 2),
      ("seq 9223372036854775807 offset 0 next-id 1 count 0", [], 2),
      ("seq 0 offset 0 next-id -9223372036854775809 count 0", [], 2),
      ("seq 0 offset 0 next-id 1 count -1", [], 2),
      ("seq +1 offset 0 next-id 1 count 0", [], 2),
      ("seq 0 offset 0 next-id 1 count 1", ["9223372036854775808\t0\tx"], 3),
      ("seq 0 offset 0 next-id 1 count 1", ["-9223372036854775809\t0\tx"], 3),
      ("seq 0 offset 0 next-id 1 count 1", ["-\t0\tx"], 3),
      ("seq 0 offset 0 next-id 1 count 1", ["\t0\tx"], 3),
      ("seq 0 offset 0 next-id 1 count 1", ["1-2\t0\tx"], 3),
    ]
    for (header, todos, line) in cases {
      let bytes = Self.snapshotBytes(header: header, todos: todos)
      #expect {
        try SnapshotCodec.decode(bytes, path: "/store/snapshot")
      } throws: { error in
        guard case StorageError.damaged(let path, let number, _) = error else { return false }
        return path == "/store/snapshot" && number == line
      }
    }
  }

  @Test("A journal entry numbered outside 1..<Int.max, or undoing a later entry, is damage")
  func journalNumbersAreChecked() {
    let lines = [
      #"{"seq":0,"type":"ClearDone","payload":{}}"#,
      #"{"seq":-4,"type":"ClearDone","payload":{}}"#,
      #"{"seq":9223372036854775807,"type":"ClearDone","payload":{}}"#,
      #"{"seq":3,"type":"ClearDone","payload":{},"undoes":3}"#,
      #"{"seq":3,"type":"ClearDone","payload":{},"undoes":-1}"#,
      #"{"seq":99999999999999999999,"type":"ClearDone","payload":{}}"#,
    ]
    for line in lines {
      #expect {
        try JournalCodec.decodeEntry(
          Array(line.utf8)[...], decoder: JSONDecoder(), path: "j.jsonl", number: 5)
      } throws: { error in
        guard case StorageError.damaged("j.jsonl", 5, _) = error else { return false }
        return true
      }
    }
  }

  @Test("Negative and extreme ids print right-aligned instead of trapping")
  func extremeIdsPrint() {
    let todos = [
      Todo(id: 3, title: "three"), Todo(id: -5, title: "minus"), Todo(id: 12, title: "x"),
    ]
    #expect(TodoFormatter.text(todos) == " 3 [ ] three\n-5 [ ] minus\n12 [ ] x\n")
    let extreme = Self.extremes.map { Todo(id: $0, title: "t") }
    let lines = TodoFormatter.text(extreme).split(separator: "\n")
    #expect(lines.count == extreme.count)
    #expect(Set(lines.map { $0.count }).count == 1, "every line is aligned to the widest id")
    #expect(lines.first == "\(Int.min) [ ] t")
  }

  @Test("Listing for a terminal escapes control characters; JSON and pipes are exact")
  func controlCharactersAreEscapedOnATerminal() {
    let title = "a\u{1B}[2Jb\u{7}c\nd\u{9B}31me\u{7F}f\tg é 😀"
    let todos = [Todo(id: 1, title: title)]
    #expect(
      TodoFormatter.text(todos, forTerminal: true)
        == "1 [ ] a\\e[2Jb\\u{7}c\\nd\\u{9B}31me\\u{7F}f\\tg é 😀\n")
    #expect(TodoFormatter.text(todos) == "1 [ ] \(title)\n")
    let json = TodoFormatter.list(
      AppState(todos: TrackedArray(todos), nextID: 2), selection: TodoSelection(), json: true,
      forTerminal: true)
    #expect(json.contains(#"a\u001b[2Jb\u0007c\nd"#))
  }

  @Test("History for a terminal escapes the controls that quoting leaves")
  func historyIsEscaped() {
    let entries = [
      JournalEntry(seq: 1, change: .addTodo(AddTodo(id: 1, title: "x\u{9B}y")), inverse: nil)
    ]
    #expect(!TodoFormatter.history(entries, forTerminal: true).contains("\u{9B}"))
    #expect(TodoFormatter.history(entries).contains("\u{9B}"))
  }
}
