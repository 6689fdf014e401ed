import StateStoreUI
import Testing

struct AppendTodos: StateUpdater {
  let ids: [Int]
  func updateState(_ state: inout AppState) {
    for id in ids { state.todos.append(Todo(id: id, title: "todo \(id)")) }
  }
}

struct ReplaceTodos: StateUpdater {
  let ids: [Int]
  func updateState(_ state: inout AppState) {
    state.todos = TrackedArray(ids.map { Todo(id: $0, title: "todo \($0)") })
  }
}

/// Counts the views made and removed, by id.
@MainActor
final class RowLedger {
  var made: [Int] = []
  var removed: [Int] = []
}

@Suite("Rows by id: one connected row view per element")
@MainActor
struct RowConnectionsTests {
  func follow(_ store: AppStore, ledger: RowLedger) -> RowConnections<RowView> {
    RowConnections(store: store, rows: \.todos) { id in
      ledger.made.append(id)
      return RowView()
    } removed: { id, _ in
      ledger.removed.append(id)
    }
  }

  @Test("each element gets one connected view, made once; changes reach only their row")
  func oneViewPerElement() {
    let store = makeStore()
    let ledger = RowLedger()
    let rows = follow(store, ledger: ledger)
    #expect(ledger.made == [0, 1, 2, 3, 4])
    #expect(rows.orderedViews(in: store.state.todos).map { $0.model?.id } == [0, 1, 2, 3, 4])
    store.dispatch(Toggle(id: 2))
    store.dispatch(Bump())
    #expect(ledger.made == [0, 1, 2, 3, 4])
    #expect(rows.views[2]?.model?.done == true)
    #expect(rows.views[1]?.updates.count == 1)
  }

  @Test("an id that appears gets a view, one that goes is disconnected and handed back")
  func followsIDs() {
    let store = makeStore()
    let ledger = RowLedger()
    let rows = follow(store, ledger: ledger)
    store.dispatch(AppendTodos(ids: [7]))
    store.dispatch(RemoveTodo(id: 1))
    #expect(ledger.made == [0, 1, 2, 3, 4, 7])
    #expect(ledger.removed == [1])
    #expect(rows.views[1] == nil)
    #expect(rows.orderedViews(in: store.state.todos).map { $0.model?.id } == [0, 2, 3, 4, 7])
    // The removed row's view hears nothing more.
    store.dispatch(AppendTodos(ids: [1]))
    #expect(ledger.made == [0, 1, 2, 3, 4, 7, 1])
  }

  @Test("past the change journal (40 ids in one update) every id is compared once, still right")
  func pastTheJournal() {
    let store = makeStore()
    let ledger = RowLedger()
    let rows = follow(store, ledger: ledger)
    store.dispatch(AppendTodos(ids: Array(100..<140)))
    #expect(ledger.made.count == 45)
    store.dispatch(ReplaceTodos(ids: [0, 200]))
    #expect(Set(ledger.removed) == Set([1, 2, 3, 4] + Array(100..<140)))
    #expect(Set(rows.views.keys) == [0, 200])
  }

  @Test("cancel disconnects every row")
  func cancelDisconnects() {
    let store = makeStore()
    let ledger = RowLedger()
    let rows = follow(store, ledger: ledger)
    rows.cancel()
    store.dispatch(Toggle(id: 0))
    store.dispatch(AppendTodos(ids: [9]))
    #expect(rows.views[0]?.model?.done == false)
    #expect(ledger.made == [0, 1, 2, 3, 4])
  }

  @Test("a connection made inside a subscriber's callback gets its row at once, then each change")
  func subscribingFromACallback() {
    let store = makeStore()
    let row = RowView()
    var connection: Subscription?
    let title = store.subscribe(TitleViewModel.self) { model in
      guard model?.text == "Work", connection == nil else { return }
      connection = store.connect(row, to: \.todos, id: 3)
    }
    store.dispatch(SetTitle(title: "Work"))
    #expect(row.model?.id == 3)
    store.dispatch(Toggle(id: 3))
    #expect(row.model?.done == true)
    #expect(row.updates.count == 2)
    title.cancel()
    connection?.cancel()
  }
}
