import StateStoreUI
import Testing

@Suite("connect: a view kept current by the store")
@MainActor
struct ConnectTests {
  @Test("connecting sets the model and calls update at once, with no old model")
  func updatesAtOnce() {
    let store = makeStore()
    let view = TitleView()
    let connection = store.connect(view)
    #expect(view.model == TitleViewModel(text: "Inbox"))
    #expect(view.updates == [update(nil, "Inbox")])
    _ = connection
  }

  @Test("afterwards the view is updated only when its model changes, old model exact")
  func exactOldModelSequence() {
    let store = makeStore()
    let view = TitleView()
    let connection = store.connect(view)
    store.dispatch(SetTitle(title: "Work"))
    store.dispatch(Bump())
    store.dispatch(SetTitle(title: "Work"))
    store.dispatch(SetTitle(title: "Home"))
    store.dispatch(Bump())
    #expect(
      view.updates == [update(nil, "Inbox"), update("Inbox", "Work"), update("Work", "Home")])
    #expect(view.model?.text == "Home")
    _ = connection
  }

  @Test("a view model that finds nothing to show reaches the view as nil, and back")
  func nilModels() {
    let store = makeStore()
    let view = OptionalTitleView()
    let connection = store.connect(view)
    store.dispatch(SetTitle(title: ""))
    store.dispatch(SetTitle(title: "Back"))
    #expect(view.updates == [update(nil, "Inbox"), update("Inbox", nil), update(nil, "Back")])
    _ = connection
  }

  @Test("the store holds the view weakly, and a released view ends the connection")
  func releasedViewEndsConnection() throws {
    let store = makeStore()
    var view: TitleView? = TitleView()
    weak let weakView = view
    let connection = store.connect(try #require(view))
    view = nil
    #expect(weakView == nil)
    store.dispatch(SetTitle(title: "Work"))
    #expect(connection.isCancelled)
  }

  @Test("cancel disconnects at once")
  func cancelDisconnects() {
    let store = makeStore()
    let view = TitleView()
    let connection = store.connect(view)
    connection.cancel()
    store.dispatch(SetTitle(title: "Work"))
    #expect(view.updates == [update(nil, "Inbox")])
    #expect(view.model?.text == "Inbox")
  }

  @Test("releasing the token disconnects too, and does not keep the view")
  func releasedTokenDisconnects() {
    let store = makeStore()
    var view: TitleView? = TitleView()
    weak let weakView = view
    if let view { _ = store.connect(view) }
    store.dispatch(SetTitle(title: "Work"))
    #expect(view?.updates == [update(nil, "Inbox")])
    view = nil
    #expect(weakView == nil)
  }

  @Test("connecting again delivers the current model at once, the last model as old")
  func reconnectDeliversCurrentModel() {
    let store = makeStore()
    let view = TitleView()
    store.connect(view).cancel()
    store.dispatch(SetTitle(title: "Work"))
    store.dispatch(SetTitle(title: "Home"))
    let again = store.connect(view)
    #expect(view.updates == [update(nil, "Inbox"), update("Inbox", "Home")])
    again.cancel()
    let unchanged = store.connect(view)
    #expect(view.updates.last == update("Home", "Home"))
    _ = unchanged
  }

  @Test("views and subscribers of one view-model type share one evaluation per change")
  func evaluationsAreShared() {
    let store = makeStore()
    let views = (0..<3).map { _ in SharedTitleView() }
    var tokens = views.map { store.connect($0) }
    tokens.append(store.subscribe(SharedTitleViewModel.self) { _ in })
    let before = SharedTitleViewModel.evaluations.withLock { $0 }
    store.dispatch(SetTitle(title: "Work"))
    store.dispatch(Bump())
    let after = SharedTitleViewModel.evaluations.withLock { $0 }
    #expect(after - before == 2)
    #expect(views.map(\.updateCount) == [2, 2, 2])
  }

  @Test("a dispatch from inside update is queued and delivered after the current one")
  func dispatchFromUpdateIsQueued() {
    let store = makeStore()
    let view = TitleView()
    let reacting = TitleView()
    let first = store.connect(view)
    var dispatched = false
    let subscription = store.subscribe(TitleViewModel.self) { model in
      if model?.text == "Work", !dispatched {
        dispatched = true
        store.dispatch(SetTitle(title: "Home"))
      }
    }
    let second = store.connect(reacting)
    store.dispatch(SetTitle(title: "Work"))
    let expected = [update(nil, "Inbox"), update("Inbox", "Work"), update("Work", "Home")]
    #expect(view.updates == expected)
    #expect(reacting.updates == expected)
    _ = (first, subscription, second)
  }
}

@Suite("connect(_:to:id:): a row view kept current by an element subscription")
@MainActor
struct RowConnectTests {
  @Test("a row view gets its element at once, then only its own changes, old element exact")
  func rowUpdates() {
    let store = makeStore()
    let row = RowView()
    let connection = store.connect(row, to: \.todos, id: 2)
    store.dispatch(Toggle(id: 1))
    store.dispatch(Toggle(id: 2))
    store.dispatch(SetTitle(title: "Work"))
    store.dispatch(RemoveTodo(id: 2))
    let open = Todo(id: 2, title: "todo 2")
    let done = Todo(id: 2, title: "todo 2", done: true)
    #expect(
      row.updates == [
        RowView.Update(old: nil, new: open), RowView.Update(old: open, new: done),
        RowView.Update(old: done, new: nil),
      ])
    _ = connection
  }

  @Test("the row view is held weakly, and a released one ends the connection")
  func releasedRowEndsConnection() throws {
    let store = makeStore()
    var row: RowView? = RowView()
    weak let weakRow = row
    let connection = store.connect(try #require(row), to: \.todos, id: 0)
    row = nil
    #expect(weakRow == nil)
    store.dispatch(Toggle(id: 0))
    #expect(connection.isCancelled)
  }
}
