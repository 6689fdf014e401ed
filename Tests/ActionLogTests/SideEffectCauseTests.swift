import ActionLog
import Foundation
import SideEffects
import StateStore
import Synchronization
import Testing

/// A side effect that "loads" two todos; it counts its runs to prove replay never starts it.
struct LoadSampleTodos: SideEffect {
  static let runs = Mutex(0)

  func sideEffect(_ context: SideEffectContext<TodoState, Void>) async throws {
    Self.runs.withLock { $0 += 1 }
    await context.dispatch(AddTodo(title: "loaded 1"))
    await context.dispatch(AddTodo(title: "loaded 2"))
  }
}

@Suite("Causes from side effects")
@MainActor
struct SideEffectCauseTests {
  @Test("Updaters dispatched by a side effect are recorded with it as their cause; replay skips it")
  func effectCauses() async throws {
    let store = Store<TodoState, Void>()
    let recorder = try ActionRecorder(store: store, registry: .todos(), destination: .memory)
    store.dispatch(SetFilter(filter: .open))
    try await store.dispatch(LoadSampleTodos())
    #expect(LoadSampleTodos.runs.withLock { $0 } == 1)

    let directory = try TemporaryDirectory()
    let url = directory.file("effects.jsonl")
    try recorder.recordedData.write(to: url)
    let entries = try ActionReplayer(registry: .todos()).entries(contentsOf: url)
    #expect(entries.map(\.type) == ["SetFilter", "AddTodo", "AddTodo"])
    #expect(entries.map(\.cause?.name) == [nil, "LoadSampleTodos", "LoadSampleTodos"])

    let replayed = try ActionReplayer(registry: .todos())
      .replay(contentsOf: url, initialState: TodoState())
    #expect(replayed == store.state)
    #expect(LoadSampleTodos.runs.withLock { $0 } == 1)
  }
}
