import Foundation
import TerminalKit
import Testing

@testable import TodoCore

/// A storage whose writes fail, to check that a failed save changes nothing.
struct FailingStorage: TodoStorage {
  struct DiskFull: Error {}

  let base = InMemoryTodoStorage(changes: [.addTodo(AddTodo(id: 1, title: "kept"))])

  func load() throws -> AppState { try base.load() }
  func history() throws -> [JournalEntry] { try base.history() }
  func store(_ decide: @escaping @Sendable (AppState) throws -> AnyTodoChange?) async throws
    -> StoredChange?
  {
    _ = try decide(try base.load())
    throw DiskFull()
  }
  func undo() async throws -> UndoResult? { throw DiskFull() }
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

  @Test("PerformChange journals the change with the chosen id, then applies it")
  func performChange() async throws {
    let storage = InMemoryTodoStorage()
    let store = makeStore(storage)
    let entry = try await store.dispatch(PerformChange(AddTodo(title: "Buy milk")))
    #expect(entry == JournalEntry(seq: 1, change: .addTodo(AddTodo(id: 1, title: "Buy milk"))))
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

  @Test("A failed save leaves the store as it was, showing only what is saved")
  func failedSave() async throws {
    let storage = FailingStorage()
    let store = makeStore(storage)
    await #expect(throws: FailingStorage.DiskFull.self) {
      try await store.dispatch(PerformChange(AddTodo(title: "lost?")))
    }
    #expect(store.state == AppState())
    try await store.dispatch(LoadTodos())
    #expect(store.state.todos.map(\.title) == ["kept"])
    #expect(storage.base.entries.count == 1)
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

  @Test("The journaled store behaves the same through the effects, and stamps the clock's time")
  func journaledStore() async throws {
    let directory = try StoreDirectory()
    let time = Date(timeIntervalSince1970: 1_772_000_000)
    let storage = JournaledTodoStorage(
      directory: directory.path, clock: .fixed(at: time), snapshotInterval: 2)
    let store = makeStore(storage)
    for title in ["a", "b", "c"] { try await store.dispatch(PerformChange(AddTodo(title: title))) }
    let removal = try await store.dispatch(PerformChange(RemoveTodo(id: 2)))
    #expect(removal == JournalEntry(seq: 4, change: .removeTodo(RemoveTodo(id: 2)), time: time))
    #expect(try await store.dispatch(UndoLastChange()).undone.seq == 4)
    await storage.close()
    let reopened = JournaledTodoStorage(directory: directory.path)
    let reloaded = makeStore(reopened)
    try await reloaded.dispatch(LoadTodos())
    #expect(reloaded.state == store.state)
    #expect(reloaded.state.todos.map(\.id) == [1, 2, 3])
    let history = try await reloaded.dispatch(LoadHistory())
    #expect(history.map(\.seq) == [1, 2, 3, 4, 5])
    #expect(history.last?.undoes == 4)
    #expect(history.allSatisfy { $0.time == time })
    await reopened.close()
  }
}
