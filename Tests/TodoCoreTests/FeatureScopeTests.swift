import ActionLog
import Foundation
import StateStore
import StatusLineFeature
import TerminalKit
import Testing
import TitleEditorFeature

@testable import TodoCore

@MainActor
@Suite("The feature modules, mounted in the todo app by scope")
struct FeatureScopeTests {
  @Test("The title editor runs through its scope: typed to its slice, with the app's rule")
  func titleEditorInsideTheApp() async throws {
    let store = TodoStore(
      initialState: AppState(), dependencies: TodoDependencies(storage: InMemoryTodoStorage()))
    let editor = store.scope(state: \.titleEditor, dependencies: \.titleEditor)
    #expect(try await editor.dispatch(SubmitTitle("   ")) == nil)
    #expect(store.state.titleEditor.refusal == TodoError.emptyTitle.description)
    #expect(try await editor.dispatch(SubmitTitle(" Buy milk ")) == "Buy milk")
    #expect(store.state.titleEditor == TitleEditorState(accepted: "Buy milk"))
    #expect(editor.state == store.state.titleEditor)
  }

  @Test("Adding a todo in the UI goes through the title editor's slice of the app's state")
  func addThroughTheUI() async throws {
    let ui = try await TerminalUIHarness(storage: InMemoryTodoStorage())
    await ui.press(.character("a"))
    await ui.type("  Call mom ")
    await ui.press(.enter)
    #expect(ui.state.todos.map(\.title) == ["Call mom"])
    #expect(ui.state.titleEditor.accepted == "Call mom")
  }

  @Test("The status line is the app's statusLine slice; loading the todos keeps it")
  func statusLineSurvivesLoading() async throws {
    let storage = InMemoryTodoStorage()
    let store = TodoStore(
      initialState: AppState(), dependencies: TodoDependencies(storage: storage))
    let status = store.scope(state: \.statusLine, dependencies: \.statusLine)
    try await status.dispatch(ReportError(TodoError.noSuchTodo(7)))
    #expect(store.state.statusLine.message == "no todo with id 7")
    try await store.dispatch(PerformChange(AddTodo(title: "x")))
    try await store.dispatch(LoadTodos())
    #expect(store.state.statusLine.message == "no todo with id 7")
    #expect(store.state.todos.map(\.title) == ["x"])
  }

  @Test("The features' slices are not stored: a state encodes as it always did")
  func slicesAreNotEncoded() throws {
    var state = AppState()
    state.statusLine.message = "hello"
    AddTodo(title: "a").updateState(&state)
    let json = String(decoding: try JSONEncoder().encode(state), as: UTF8.self)
    #expect(!json.contains("statusLine") && !json.contains("titleEditor"))
    let decoded = try JSONDecoder().decode(AppState.self, from: Data(json.utf8))
    #expect(decoded.hasSameTodos(as: state))
    #expect(decoded.statusLine == StatusLineState())
  }
}

@MainActor
@Suite("Logs recorded through the features' scopes")
struct FeatureScopeLogTests {
  @Test("Changes at the root and updaters through scopes replay to the same state")
  func recordThroughScopes() async throws {
    let store = TodoStore(
      initialState: AppState(), dependencies: TodoDependencies(storage: InMemoryTodoStorage()))
    let recorder = try ActionRecorder(
      store: store, registry: TodoActionLog.makeRegistry(), destination: .memory)
    let editor = store.scope(state: \.titleEditor, dependencies: \.titleEditor)
    let status = store.scope(state: \.statusLine, dependencies: \.statusLine)
    let title = try await editor.dispatch(SubmitTitle(" Buy milk "))
    try await store.dispatch(PerformChange(AddTodo(title: title ?? "")))
    _ = try await editor.dispatch(SubmitTitle(""))
    try await status.dispatch(ReportError(TodoError.emptyTitle))
    let log = String(decoding: recorder.recordedData, as: UTF8.self)
    #expect(log.contains(#""scope":"titleEditor""#))
    #expect(log.contains(#""scope":"statusLine""#))
    let replayed = try ActionReplayer(registry: TodoActionLog.makeRegistry())
      .replay(recorder.recordedData, initialState: AppState())
    #expect(replayed == store.state)
    #expect(replayed.todos.map(\.title) == ["Buy milk"])
  }
}
