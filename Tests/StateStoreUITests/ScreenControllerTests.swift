import StateStoreUI
import Testing

@Suite("ScreenController: connected while visible")
@MainActor
struct ScreenControllerTests {
  private func makeController(_ store: AppStore) -> ScreenController<TitleView, Void> {
    ScreenController(view: TitleView(), store: store) { view, controller in
      view.didTapRename = { [weak controller] title in
        controller?.store?.dispatch(SetTitle(title: title))
      }
    }
  }

  @Test("a new controller is hidden and its view has no model")
  func startsHidden() {
    let controller = makeController(makeStore())
    #expect(!controller.isVisible)
    #expect(controller.view.model == nil)
    #expect(controller.view.updates.isEmpty)
  }

  @Test("appear connects at once, disappear disconnects, appear again brings it up to date")
  func lifecycle() {
    let store = makeStore()
    let controller = makeController(store)
    controller.appear()
    #expect(controller.isVisible)
    store.dispatch(SetTitle(title: "Work"))
    controller.disappear()
    #expect(!controller.isVisible)
    store.dispatch(SetTitle(title: "Hidden"))
    store.dispatch(SetTitle(title: "Home"))
    controller.appear()
    #expect(
      controller.view.updates == [
        update(nil, "Inbox"), update("Inbox", "Work"), update("Work", "Home"),
      ])
  }

  @Test("appearing or disappearing twice does nothing more")
  func idempotentHooks() {
    let store = makeStore()
    let controller = makeController(store)
    controller.appear()
    controller.appear()
    store.dispatch(SetTitle(title: "Work"))
    controller.disappear()
    controller.disappear()
    #expect(controller.view.updates == [update(nil, "Inbox"), update("Inbox", "Work")])
  }

  @Test("the view's interactions are wired to dispatches")
  func interactionsDispatch() {
    let store = makeStore()
    let controller = makeController(store)
    controller.appear()
    controller.view.didTapRename("Renamed")
    #expect(store.state.title == "Renamed")
    #expect(controller.view.updates.last == update("Inbox", "Renamed"))
  }

  @Test("the controller keeps neither the store nor, once released, the view")
  func lifetimes() throws {
    var store: AppStore? = makeStore()
    weak let weakStore = store
    var controller: ScreenController<TitleView, Void>? = makeController(try #require(store))
    weak let weakView = controller?.view
    weak let weakController = controller
    controller?.appear()
    store = nil
    #expect(weakStore == nil)
    #expect(controller?.store == nil)
    controller?.disappear()
    controller?.appear()
    #expect(controller?.view.updates == [update(nil, "Inbox")])
    controller = nil
    #expect(weakController == nil)
    #expect(weakView == nil)
  }

  @Test("a released visible controller disconnects its view")
  func releasedControllerDisconnects() {
    let store = makeStore()
    var controller: ScreenController<TitleView, Void>? = makeController(store)
    controller?.appear()
    weak let weakView = controller?.view
    controller = nil
    #expect(weakView == nil)
    store.dispatch(SetTitle(title: "Work"))
  }
}
