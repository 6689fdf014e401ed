import Foundation
import TerminalKit
import Testing

@testable import TodoCore

@Suite("Updaters and their inverses")
struct UpdaterTests {
  /// A list with three todos, the second done.
  static func sample() -> AppState {
    var state = AppState()
    AddTodo(title: "Buy milk").updateState(&state)
    AddTodo(title: "Call mom 📞").updateState(&state)
    AddTodo(title: "שלום עולם").updateState(&state)
    SetDone(id: 2, done: true).updateState(&state)
    return state
  }

  @Test("AddTodo takes the next id, or the given one, and moves nextID past it")
  func addAssignsIDs() {
    var state = AppState()
    AddTodo(title: "a").updateState(&state)
    AddTodo(id: 10, title: "b").updateState(&state)
    AddTodo(title: "c").updateState(&state)
    #expect(state.todos.map(\.id) == [1, 10, 11])
    #expect(state.nextID == 12)
    #expect(state.todos.allSatisfy { !$0.done })
  }

  @Test("Each change followed by its inverse gives back the state it started from")
  func inversesRevert() throws {
    let changes: [AnyTodoChange] = [
      .addTodo(AddTodo(id: 4, title: "new")),
      .setDone(SetDone(id: 1, done: true)),
      .setDone(SetDone(id: 2, done: false)),
      .editTitle(EditTitle(id: 3, title: "مرحبا")),
      .removeTodo(RemoveTodo(id: 2)),
      .removeTodo(RemoveTodo(id: 1)),
      .clearDone(ClearDone()),
    ]
    for change in changes {
      let before = Self.sample()
      var state = before
      let inverse = try #require(change.change.inverse(in: before))
      change.apply(to: &state)
      #expect(state != before, "\(change) changed nothing")
      inverse.apply(to: &state)
      #expect(state.todos == before.todos, "undoing \(change)")
    }
  }

  @Test("ClearDone's inverse puts several done todos back at their positions")
  func clearDoneRestoresPositions() throws {
    var before = Self.sample()
    SetDone(id: 3, done: true).updateState(&before)
    AddTodo(title: "last").updateState(&before)
    var state = before
    let inverse = try #require(ClearDone().inverse(in: before))
    ClearDone().updateState(&state)
    #expect(state.todos.map(\.id) == [1, 4])
    inverse.apply(to: &state)
    #expect(state.todos == before.todos)
  }

  @Test("validate names the unknown id and rejects blank titles and used ids")
  func validation() {
    let state = Self.sample()
    #expect(throws: TodoError.noSuchTodo(9)) { try SetDone(id: 9, done: true).validate(in: state) }
    #expect(throws: TodoError.noSuchTodo(9)) { try RemoveTodo(id: 9).validate(in: state) }
    #expect(throws: TodoError.noSuchTodo(9)) {
      try EditTitle(id: 9, title: "x").validate(in: state)
    }
    #expect(throws: TodoError.emptyTitle) { try EditTitle(id: 1, title: " \t").validate(in: state) }
    #expect(throws: TodoError.emptyTitle) { try AddTodo(title: "").validate(in: state) }
    #expect(throws: TodoError.idInUse(1)) { try AddTodo(id: 1, title: "x").validate(in: state) }
    #expect(throws: Never.self) { try ClearDone().validate(in: state) }
  }

  @Test("changes(_:) is false for changes that would do nothing")
  func noOps() {
    let state = Self.sample()
    #expect(!SetDone(id: 2, done: true).changes(state))
    #expect(SetDone(id: 2, done: false).changes(state))
    #expect(!EditTitle(id: 1, title: "Buy milk").changes(state))
    #expect(EditTitle(id: 1, title: "Buy oat milk").changes(state))
    #expect(ClearDone().changes(state))
    #expect(!ClearDone().changes(AppState()))
  }

  @Test("A field change keeps its payload, sets its field, and its inverse sets it back")
  func fieldChanges() throws {
    let date = try #require(CalendarDate("2026-03-13"))
    let cases: [(change: AnyTodoChange, payload: String, same: AnyTodoChange)] = [
      (
        SetDone(id: 1, done: true).erased, #"{"done":true,"id":1}"#,
        SetDone(id: 1, done: false).erased
      ),
      (
        SetDue(id: 1, due: date).erased, #"{"due":"2026-03-13","id":1}"#,
        SetDue(id: 1, due: nil).erased
      ),
      (
        SetPriority(id: 1, priority: .high).erased, #"{"id":1,"priority":"high"}"#,
        SetPriority(id: 1, priority: nil).erased
      ),
      (
        EditTitle(id: 1, title: "Buy oat milk").erased, #"{"id":1,"title":"Buy oat milk"}"#,
        EditTitle(id: 1, title: "Buy milk").erased
      ),
    ]
    let encoder = JSONEncoder()
    encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
    for (change, payload, same) in cases {
      // The journal's payload: the keys of every store written so far.
      #expect(String(decoding: try encoder.encode(change.change), as: UTF8.self) == payload)
      let before = Self.sample()
      #expect(change.change.changes(before), "\(change) would change the todo")
      #expect(!same.change.changes(before), "\(same) holds the todo's value already")
      #expect(change.change.inverse(in: before) == same)
      var state = before
      change.apply(to: &state)
      #expect(state.todos[id: 2] == before.todos[id: 2], "\(change) touched another todo")
      #expect(state != before)
      try #require(change.change.inverse(in: before)).apply(to: &state)
      #expect(state == before)
      #expect(change.change.inverse(in: AppState()) == nil)
      #expect(throws: TodoError.noSuchTodo(1)) { try change.change.validate(in: AppState()) }
      var empty = AppState()
      change.apply(to: &empty)
      #expect(empty == AppState(), "\(change) of an absent todo does nothing")
    }
  }

  @Test("Ids are never reused after a removal")
  func idsNotReused() {
    var state = Self.sample()
    RemoveTodo(id: 3).updateState(&state)
    AddTodo(title: "again").updateState(&state)
    #expect(state.todos.map(\.id) == [1, 2, 4])
  }
}
