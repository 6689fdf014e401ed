import ActionLog
import Foundation
import StateStore
import StateStoreTesting
import Testing

@testable import TodoListFeature

@MainActor
@Suite("The list feature, alone")
struct TodoListFeatureTests {
  @Test("s cycles the sort through added, due, priority, title and back")
  func cycleSort() async {
    let store = TestStore(initialState: TodoListState(), dependencies: ())
    await store.send(CycleSort()) { $0.sort = .due }
    await store.send(CycleSort()) { $0.sort = .priority }
    await store.send(CycleSort()) { $0.sort = .title }
    await store.send(CycleSort()) { $0.sort = .added }
  }

  @Test("Typing a search applies it at once; Enter keeps it, Esc clears it")
  func search() async {
    let store = TestStore(initialState: TodoListState(), dependencies: ())
    await store.send(BeginFilterEditing(.search)) { $0.editing = .search }
    await store.send(SetFilterText("caf")) { $0.search = "caf" }
    await store.send(EndFilterEditing(keep: true)) { $0.editing = nil }
    await store.send(BeginFilterEditing(.search)) { $0.editing = .search }
    await store.send(EndFilterEditing(keep: false)) {
      $0.editing = nil
      $0.search = ""
    }
  }

  @Test("The tag filter is nil when empty; text typed with nothing being edited changes nothing")
  func tag() async {
    let store = TestStore(initialState: TodoListState(), dependencies: ())
    await store.send(SetFilterText("ignored"))
    await store.send(BeginFilterEditing(.tag)) { $0.editing = .tag }
    await store.send(SetFilterText("work")) { $0.tag = "work" }
    await store.send(SetFilterText("")) { $0.tag = nil }
    await store.send(SetFilterText("home")) { $0.tag = "home" }
    await store.send(EndFilterEditing(keep: true)) { $0.editing = nil }
  }

  @Test("The updaters replay from their registered names")
  func registry() throws {
    let registry = ActionLogRegistry<TodoListState>()
    TodoListState.registerUpdaters(in: registry)
    let log = """
      {"format":"statestore-action-log","version":1}
      {"seq":1,"type":"BeginFilterEditing","payload":{"field":"tag"}}
      {"seq":2,"type":"SetFilterText","payload":{"text":"work"}}
      {"seq":3,"type":"EndFilterEditing","payload":{"keep":true}}
      {"seq":4,"type":"CycleSort","payload":{}}

      """
    let url = FileManager.default.temporaryDirectory
      .appendingPathComponent("list-feature-\(UUID().uuidString).jsonl")
    try Data(log.utf8).write(to: url)
    defer { try? FileManager.default.removeItem(at: url) }
    let state = try ActionReplayer(registry: registry)
      .replay(contentsOf: url, initialState: TodoListState())
    var expected = TodoListState()
    expected.tag = "work"
    expected.sort = .due
    #expect(state == expected)
  }
}
