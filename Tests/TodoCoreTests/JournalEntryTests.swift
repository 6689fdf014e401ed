import ActionLog
import Foundation
import TerminalKit
import Testing

@testable import TodoCore

@Suite("Journal lines")
struct JournalEntryTests {
  @Test("An entry is written as an action-log line with seq, type and payload first")
  func lineFormat() throws {
    let entry = JournalEntry(
      seq: 7, change: .addTodo(AddTodo(id: 3, title: "Buy \"milk\"")),
      inverse: .removeTodo(RemoveTodo(id: 3)))
    let line = String(decoding: try JournalCodec.encode([entry]), as: UTF8.self)
    #expect(
      line == #"{"seq":7,"type":"AddTodo","payload":{"id":3,"title":"Buy \"milk\""},"#
        + #""inverse":{"type":"RemoveTodo","payload":{"id":3}}}"# + "\n")
  }

  @Test("Every change type survives a write and a read")
  func roundTrip() throws {
    let todo = Todo(id: 5, title: "line\nbreak\ttab \\ 🎉", done: true)
    let changes: [AnyTodoChange] = [
      .addTodo(AddTodo(id: 1, title: "a")), .addTodo(AddTodo(title: "no id")),
      .setDone(SetDone(id: 1, done: true)), .editTitle(EditTitle(id: 1, title: "ب")),
      .removeTodo(RemoveTodo(id: 1)), .clearDone(ClearDone()),
      .restoreTodos(RestoreTodos([PlacedTodo(index: 2, todo: todo)])),
    ]
    let entries = changes.enumerated().map { index, change in
      JournalEntry(
        seq: index + 1, change: change, inverse: index.isMultiple(of: 2) ? change : nil,
        undoes: index == 3 ? 1 : nil)
    }
    let bytes = try JournalCodec.encode(entries)
    let (lines, torn) = JSONLines.split(bytes)
    #expect(torn == nil)
    let decoded = try lines.enumerated().map { index, range in
      try JournalCodec.decodeEntry(
        bytes[range], decoder: JSONDecoder(), path: "j", number: index + 1)
    }
    #expect(decoded == entries)
  }

  @Test("An unknown type is an error naming the file, the line and the type")
  func unknownType() {
    let line = Array(#"{"seq":1,"type":"Teleport","payload":{}}"#.utf8)
    #expect {
      try JournalCodec.decodeEntry(line[...], decoder: JSONDecoder(), path: "j.jsonl", number: 4)
    } throws: { error in
      guard case StorageError.damaged(let path, let number, let reason) = error else {
        return false
      }
      return path == "j.jsonl" && number == 4 && reason.contains("Teleport")
    }
  }

  @Test("JSONLines.split splits complete lines and reports where an unfinished one starts")
  func lineSplitting() {
    let bytes = Array("ab\ncd\nef".utf8)
    let (lines, torn) = JSONLines.split(bytes)
    #expect(lines == [0..<2, 3..<5])
    #expect(torn == 6)
    #expect(JSONLines.split(Array("x\n".utf8)).tornStart == nil)
  }

  @Test("The journal's header is the action log's, with the app named, byte for byte as before")
  func headerBytes() {
    #expect(
      JournalCodec.header == #"{"format":"statestore-action-log","version":1,"app":"todo-cli"}"#)
  }
}
