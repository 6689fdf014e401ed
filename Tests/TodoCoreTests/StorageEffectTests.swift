import Foundation
import TerminalKit
import Testing

@testable import TodoCore

/// A storage whose writes fail, to check that a failed save changes nothing.
struct FailingStorage: TodoStorage {
  struct DiskFull: Error {}

  let base = InMemoryTodoStorage(entries: [
    JournalEntry(seq: 1, change: .addTodo(AddTodo(id: 1, title: "kept")), inverse: nil)
  ])

  func load() throws -> AppState { try base.load() }
  func history() throws -> [JournalEntry] { try base.history() }
  func withExclusiveAccess<R: Sendable>(
    _ body: (any StorageTransaction) async throws -> R
  ) async throws -> R {
    try await base.withExclusiveAccess { transaction in
      try await body(Failing(state: transaction.state))
    }
  }

  final class Failing: StorageTransaction {
    let state: AppState
    init(state: AppState) { self.state = state }
    func lastUndoableEntry() throws -> JournalEntry? { nil }
    func append(_ drafts: [JournalDraft]) throws -> [JournalEntry] { throw DiskFull() }
  }
}

@MainActor
@Suite("Storage side effects")
struct StorageEffectTests {
  func makeStore(_ storage: some TodoStorage) -> TodoStore {
    TodoStore(
      initialState: AppState(),
      dependencies: TodoDependencies(
        storage: storage, clock: .fixed(at: Date(timeIntervalSince1970: 1_772_000_000))))
  }

  @Test("PerformChange journals the change with its inverse and the chosen id, then applies it")
  func performChange() async throws {
    let storage = InMemoryTodoStorage()
    let store = makeStore(storage)
    let entry = try await store.dispatch(PerformChange(AddTodo(title: "Buy milk")))
    #expect(
      entry
        == JournalEntry(
          seq: 1, change: .addTodo(AddTodo(id: 1, title: "Buy milk")),
          inverse: .removeTodo(RemoveTodo(id: 1)), time: Date(timeIntervalSince1970: 1_772_000_000))
    )
    #expect(store.state.todos.map(\.title) == ["Buy milk"])
    #expect(storage.entries == [try #require(entry)])
  }

  @Test("A change that would do nothing is neither journaled nor dispatched")
  func noOp() async throws {
    let storage = InMemoryTodoStorage()
    let store = makeStore(storage)
    try await store.dispatch(PerformChange(AddTodo(title: "a")))
    try await store.dispatch(PerformChange(SetDone(id: 1, done: true)))
    let entry = try await store.dispatch(PerformChange(SetDone(id: 1, done: true)))
    #expect(entry == nil)
    #expect(storage.entries.count == 2)
  }

  @Test("An unknown id fails with TodoError and changes nothing")
  func unknownID() async throws {
    let storage = InMemoryTodoStorage()
    let store = makeStore(storage)
    await #expect(throws: TodoError.noSuchTodo(4)) {
      try await store.dispatch(PerformChange(RemoveTodo(id: 4)))
    }
    #expect(storage.entries.isEmpty)
    #expect(store.state == AppState())
  }

  @Test("A failed save leaves the store showing only what is saved")
  func failedSave() async throws {
    let store = makeStore(FailingStorage())
    await #expect(throws: FailingStorage.DiskFull.self) {
      try await store.dispatch(PerformChange(AddTodo(title: "lost?")))
    }
    #expect(store.state.todos.map(\.title) == ["kept"])
  }

  @Test("A change first catches up with what another process stored")
  func catchesUp() async throws {
    let storage = InMemoryTodoStorage()
    let first = makeStore(storage)
    let second = makeStore(storage)
    try await first.dispatch(PerformChange(AddTodo(title: "from the first")))
    try await second.dispatch(PerformChange(AddTodo(title: "from the second")))
    #expect(second.state.todos.map(\.id) == [1, 2])
    try await first.dispatch(LoadTodos())
    #expect(first.state == second.state)
  }

  @Test("Undo reverts changes newest first, skipping what it already reverted")
  func undo() async throws {
    let storage = InMemoryTodoStorage()
    let store = makeStore(storage)
    try await store.dispatch(PerformChange(AddTodo(title: "a")))
    try await store.dispatch(PerformChange(AddTodo(title: "b")))
    try await store.dispatch(PerformChange(SetDone(id: 1, done: true)))
    try await store.dispatch(PerformChange(ClearDone()))
    let states = [store.state]
    #expect(try await store.dispatch(UndoLastChange()).undone.seq == 4)
    #expect(store.state.todos.map(\.id) == [1, 2])
    #expect(try await store.dispatch(UndoLastChange()).undone.seq == 3)
    #expect(store.state.todos[id: 1]?.done == false)
    try await store.dispatch(PerformChange(EditTitle(id: 2, title: "B")))
    #expect(try await store.dispatch(UndoLastChange()).undone.seq == 7)
    #expect(try await store.dispatch(UndoLastChange()).undone.seq == 2)
    #expect(try await store.dispatch(UndoLastChange()).undone.seq == 1)
    #expect(store.state.todos.isEmpty)
    await #expect(throws: TodoError.nothingToUndo) { try await store.dispatch(UndoLastChange()) }
    #expect(try await store.dispatch(LoadHistory()).count == 10)
    #expect(states[0].todos.map(\.id) == [2])
  }

  @Test("The file store behaves the same through the effects")
  func fileStore() async throws {
    let directory = try StoreDirectory()
    let store = makeStore(FileTodoStorage(directory: directory.path, compactionInterval: 2))
    for title in ["a", "b", "c"] { try await store.dispatch(PerformChange(AddTodo(title: title))) }
    try await store.dispatch(PerformChange(RemoveTodo(id: 2)))
    try await store.dispatch(UndoLastChange())
    let reloaded = makeStore(FileTodoStorage(directory: directory.path))
    try await reloaded.dispatch(LoadTodos())
    #expect(reloaded.state == store.state)
    #expect(reloaded.state.todos.map(\.id) == [1, 2, 3])
  }
}
