import StateStoreUI
import Testing

@Suite("LocalStateScreenController: a view model of the state and the screen's own state")
@MainActor
struct LocalStateTests {
  private func makeController(
    _ store: AppStore, query: String = ""
  ) -> LocalStateScreenController<SearchView, Void> {
    LocalStateScreenController(view: SearchView(), store: store, localState: query) {
      view, controller in
      view.didType = { [weak controller] text in controller?.localState = text }
    }
  }

  private func change(
    _ old: (String, String)?, _ new: (String, String)?
  ) -> SearchView.Update {
    SearchView.Update(
      old: old.map { SearchViewModel.make(title: $0.0, query: $0.1) },
      new: new.map { SearchViewModel.make(title: $0.0, query: $0.1) })
  }

  @Test("the model is built from the store's state and the local state, at once on appear")
  func initialModel() {
    let store = makeStore()
    let controller = makeController(store, query: "milk")
    #expect(controller.view.updates.isEmpty)
    controller.appear()
    #expect(controller.view.updates == [change(nil, ("Inbox", "milk"))])
  }

  @Test("changing either re-renders once, with the old model exact; equal models do not")
  func exactOldModels() {
    let store = makeStore()
    let controller = makeController(store)
    controller.appear()
    controller.view.didType("m")
    controller.view.didType("m ")  // trimmed: the same model
    store.dispatch(SetTitle(title: "Work"))
    store.dispatch(Bump())
    controller.localState = "m "  // equal local state
    controller.view.didType("mi")
    #expect(
      controller.view.updates == [
        change(nil, ("Inbox", "")), change(("Inbox", ""), ("Inbox", "m")),
        change(("Inbox", "m"), ("Work", "m")), change(("Work", "m"), ("Work", "mi")),
      ])
  }

  @Test("the local state never enters the app state or what the action log records")
  func localStateStaysLocal() {
    let store = makeStore()
    var applied = 0
    let recorder = store.observeUpdates { _ in applied += 1 }
    let controller = makeController(store)
    controller.appear()
    controller.view.didType("secret")
    controller.localState = "more"
    #expect(applied == 0)
    #expect(store.state == AppState())
    _ = recorder
  }

  @Test("hidden, it renders nothing; appearing brings it up to date with the last model as old")
  func hiddenScreen() {
    let store = makeStore()
    let controller = makeController(store)
    controller.appear()
    controller.disappear()
    controller.localState = "milk"
    store.dispatch(SetTitle(title: "Work"))
    #expect(controller.view.updates.count == 1)
    controller.appear()
    #expect(controller.view.updates.last == change(("Inbox", ""), ("Work", "milk")))
    #expect(controller.view.updates.count == 2)
  }

  @Test("the controller keeps neither the store nor, once released, the view")
  func lifetimes() throws {
    var store: AppStore? = makeStore()
    weak let weakStore = store
    var controller: LocalStateScreenController<SearchView, Void>? = makeController(
      try #require(store))
    weak let weakView = controller?.view
    controller?.appear()
    store = nil
    #expect(weakStore == nil)
    controller?.localState = "milk"
    #expect(controller?.view.updates.count == 1)
    controller = nil
    #expect(weakView == nil)
  }

  @Test("a released visible controller stops observing the store")
  func releasedControllerStopsObserving() {
    let store = makeStore()
    var controller: LocalStateScreenController<SearchView, Void>? = makeController(store)
    controller?.appear()
    weak let weakController = controller
    controller = nil
    #expect(weakController == nil)
    store.dispatch(SetTitle(title: "Work"))
  }
}
