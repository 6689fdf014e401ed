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

  @Test("Ids are never reused after a removal")
  func idsNotReused() {
    var state = Self.sample()
    RemoveTodo(id: 3).updateState(&state)
    AddTodo(title: "again").updateState(&state)
    #expect(state.todos.map(\.id) == [1, 2, 4])
  }
}
