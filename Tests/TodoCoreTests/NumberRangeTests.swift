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
    let entries = [JournalEntry(seq: 1, change: .addTodo(AddTodo(id: 1, title: "x\u{9B}y")))]
    #expect(!TodoFormatter.history(entries, forTerminal: true).contains("\u{9B}"))
    #expect(TodoFormatter.history(entries).contains("\u{9B}"))
  }
}
