import ActionLog
import Foundation
import TerminalKit
import Testing

@testable import TodoCore

@MainActor
@Suite("The todo app's action log")
struct ActionLogFixtureTests {
  static let fixture = URL(fileURLWithPath: #filePath)
    .deletingLastPathComponent().deletingLastPathComponent()
    .appendingPathComponent("ActionLogTests/Fixtures/todo-session.jsonl")

  @Test("The fixture recorded from a real todo-cli run replays to its final list")
  func replayFixture() throws {
    let state = try ActionReplayer(registry: TodoActionLog.makeRegistry())
      .replay(contentsOf: Self.fixture, initialState: AppState())
    #expect(
      state.todos.elements == [
        Todo(id: 1, title: "Buy milk", done: true),
        Todo(id: 2, title: "Call mom 📞", done: true),
        Todo(id: 3, title: "שלום עולם", done: false),
        Todo(id: 4, title: "Write the quarterly report", done: false),
        Todo(id: 5, title: "-20% on shoes", done: false),
      ])
    #expect(state.nextID == 6)
  }

  @Test("The journal is itself an action log that the library's replayer reads")
  func journalIsAnActionLog() async throws {
    let directory = try StoreDirectory()
    let storage = JournaledTodoStorage(directory: directory.path)
    let store = TodoStore(
      initialState: AppState(), dependencies: TodoDependencies(storage: storage))
    try await store.dispatch(PerformChange(AddTodo(title: "a")))
    try await store.dispatch(PerformChange(AddTodo(title: "b")))
    try await store.dispatch(PerformChange(ClearDone()))
    try await store.dispatch(PerformChange(SetDone(id: 2, done: true)))
    try await store.dispatch(UndoLastChange())
    await storage.close()
    let replayed = try ActionReplayer(registry: TodoActionLog.makeRegistry())
      .replay(contentsOf: URL(fileURLWithPath: directory.journal), initialState: AppState())
    #expect(replayed == store.state)
  }

  @Test("Recording a store with ActionRecorder and replaying gives the same state")
  @MainActor
  func recordInMemory() async throws {
    let store = TodoStore(
      initialState: AppState(), dependencies: TodoDependencies(storage: InMemoryTodoStorage()))
    let recorder = try ActionRecorder(
      store: store, registry: TodoActionLog.makeRegistry(), destination: .memory)
    try await store.dispatch(PerformChange(AddTodo(title: "x")))
    try await store.dispatch(PerformChange(AddTodo(title: "y")))
    try await store.dispatch(PerformChange(RemoveTodo(id: 1)))
    try await store.dispatch(UndoLastChange())
    let replayed = try ActionReplayer(registry: TodoActionLog.makeRegistry())
      .replay(recorder.recordedData, initialState: AppState())
    #expect(replayed == store.state)
  }
}
