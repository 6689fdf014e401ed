import StateStoreUI
import Testing

@Suite("View models with a parameter: the screen gives the id it shows, not the app state")
@MainActor
struct ParameterTests {
  @Test("subscribe delivers the view model of the id given, then only its changes")
  func subscribeWithParameter() {
    let store = BrowserStore(dependencies: ())
    var details: [String] = []
    let token = store.subscribe(RepoDetail.self, localState: 2) {
      details.append(RepoDetailView.describe($0))
    }
    store.dispatch(RenameRepo(id: 3, name: "three"))
    store.dispatch(ToggleFavourite(id: 2))
    store.dispatch(BumpUnrelated())
    store.dispatch(RenameRepo(id: 2, name: "two"))
    store.dispatch(RemoveRepo(id: 2))
    #expect(details == ["repo2", "repo2 ★", "two ★", "nil"])
    token.cancel()
    store.dispatch(AddRepo(repo: Repo(id: 2, name: "back")))
    #expect(details.count == 4)
  }

  @Test("two subscribers with different parameters each get their own view model")
  func differentParameters() {
    let store = BrowserStore(dependencies: ())
    var first: [String] = []
    var second: [String] = []
    let a = store.subscribe(RepoDetail.self, localState: 0) {
      first.append(RepoDetailView.describe($0))
    }
    let b = store.subscribe(RepoDetail.self, localState: 1) {
      second.append(RepoDetailView.describe($0))
    }
    store.dispatch(RenameRepo(id: 1, name: "one"))
    #expect(first == ["repo0"])
    #expect(second == ["repo1 ★", "one ★"])
    _ = (a, b)
  }

  @Test("connect with a parameter keeps a view current, with the exact old model")
  func connectWithParameter() {
    let store = BrowserStore(dependencies: ())
    let view = RepoDetailView()
    let connection = store.connect(view, localState: 4)
    store.dispatch(ToggleFavourite(id: 4))
    store.dispatch(ToggleFavourite(id: 0))
    store.dispatch(RenameRepo(id: 4, name: "four"))
    #expect(view.updates == ["nil → repo4", "repo4 → repo4 ★", "repo4 ★ → four ★"])
    connection.cancel()
    store.dispatch(RenameRepo(id: 4, name: "gone"))
    #expect(view.updates.count == 3)
  }

  @Test("a released view ends a connection with a parameter")
  func releasedView() throws {
    let store = BrowserStore(dependencies: ())
    var view: RepoDetailView? = RepoDetailView()
    weak let weakView = view
    let connection = store.connect(try #require(view), localState: 1)
    view = nil
    #expect(weakView == nil)
    store.dispatch(RenameRepo(id: 1, name: "one"))
    #expect(connection.isCancelled)
  }

  @Test("a detail screen's controller gets the repo id it shows from the screen")
  func detailScreenController() {
    let store = BrowserStore(dependencies: ())
    // What a routing table's `.show(id)` handler does with the id it is given.
    let controller = LocalStateScreenController(
      view: RepoDetailView(), store: store, localState: 3
    ) { view, controller in
      view.didTapFavourite = { [weak controller] in
        guard let controller else { return }
        controller.store?.dispatch(ToggleFavourite(id: controller.localState))
      }
    }
    controller.appear()
    controller.view.didTapFavourite()
    store.dispatch(RenameRepo(id: 2, name: "two"))
    #expect(controller.view.updates == ["nil → repo3", "repo3 → repo3 ★"])
    #expect(store.state.favourites == [1, 3])
  }

  @Test("on a scope, a change made at the root reaches a view model with a parameter")
  func parameterOnAScope() {
    let root = Store<DeskState, Void>(dependencies: ())
    let browser = root.scope(state: \.browser)
    var details: [String] = []
    let token = browser.subscribe(RepoDetail.self, localState: 0) {
      details.append(RepoDetailView.describe($0))
    }
    root.dispatch(DeskRename(id: 0, name: "zero"))
    root.dispatch(DeskElsewhere())
    #expect(details == ["repo0", "zero"])
    _ = token
  }
}

private struct DeskState: State {
  var browser = BrowserState()
  var elsewhere = 0
}

private struct DeskRename: StateUpdater {
  let id: Int
  let name: String
  func updateState(_ state: inout DeskState) {
    RenameRepo(id: id, name: name).updateState(&state.browser)
  }
}

private struct DeskElsewhere: StateUpdater {
  func updateState(_ state: inout DeskState) { state.elsewhere += 1 }
}

private struct PanelState: State {
  var browser = BrowserState()
}

private struct PanelRename: StateUpdater {
  func updateState(_ state: inout PanelState) {
    RenameRepo(id: 0, name: "zero").updateState(&state.browser)
  }
}

@MainActor
@Test("a local-state screen on a scope hears a change of its slice made at the root")
func localStateScreenOnAScope() {
  let root = Store<PanelState, Void>(dependencies: ())
  let scope = root.scope(state: \.browser)
  let controller = LocalStateScreenController(view: RepoDetailView(), store: scope, localState: 0)
  controller.appear()
  root.dispatch(PanelRename())
  #expect(controller.view.updates == ["nil → repo0", "repo0 → zero"])
}
