import Foundation
import Navigation
import StateStore
import Testing

@MainActor
@Suite("Route observation and mirroring into state")
struct MirroringTests {
  @Test("observers hear each change with the old and new route, until cancelled")
  func observers() async throws {
    let navigator = makeApp()
    var changes: [[Route]] = []
    let token = navigator.observeRoute { old, new in changes.append([old, new]) }
    try await navigator.show("detail")
    try await navigator.hide()
    token.cancel()
    try await navigator.show("detail")
    #expect(changes == [[["list"], ["list", "detail"]], [["list", "detail"], ["list"]]])
  }

  @Test("releasing the token stops the observer")
  func releasedToken() async throws {
    let navigator = makeApp()
    var changes = 0
    var token: Subscription? = navigator.observeRoute { _, _ in changes += 1 }
    try await navigator.show("detail")
    _ = token
    token = nil
    try await navigator.hide()
    #expect(changes == 1)
  }

  @Test("the state's route follows every change, and view models can select it")
  func mirrorsIntoState() async throws {
    let navigator = makeApp()
    let store = Store(initialState: AppState(), dependencies: Dependencies(navigator: navigator))
    var selected: [Route] = []
    let token = store.subscribe(to: \.route) { selected.append($0) }
    try await store.dispatch(Navigate(to: ["list", "detail", "comments"]))
    #expect(store.state.route == ["list", "detail", "comments"])
    try await store.dispatch(Hide())
    #expect(store.state.route == ["list", "detail"])
    #expect(
      selected == [
        ["list"], ["list", "detail"], ["list", "detail", "comments"], ["list", "detail"],
      ]
    )
    token.cancel()
  }

  @Test("changes made on the navigator directly are mirrored once the store is registered")
  func explicitMirror() async throws {
    let navigator = makeApp()
    let store = Store(initialState: AppState(), dependencies: Dependencies(navigator: navigator))
    navigator.mirrorRoute(into: store)
    navigator.mirrorRoute(into: store)
    var updates = 0
    let token = store.observeUpdates { _ in updates += 1 }
    try await navigator.show("settings")
    #expect(store.state.route == ["list", "settings"])
    #expect(updates == 1)
    token.cancel()
  }

  @Test("recorded SetRoute updaters restore the route, and Navigate rebuilds the screens")
  func replayRebuildsScreens() async throws {
    let navigator = makeApp()
    let store = Store(initialState: AppState(), dependencies: Dependencies(navigator: navigator))
    var recorded: [SetRoute<AppState>] = []
    let token = store.observeUpdates { update in
      if let setRoute = update.updater as? SetRoute<AppState> { recorded.append(setRoute) }
    }
    try await store.dispatch(Navigate(to: ["list", "settings", "about"]))
    token.cancel()

    // What an action log does: encode, decode and re-apply the updaters on a fresh store.
    let data = try JSONEncoder().encode(recorded)
    let replayed = try JSONDecoder().decode([SetRoute<AppState>].self, from: data)
    let freshNavigator = makeApp()
    let fresh = Store(
      initialState: AppState(), dependencies: Dependencies(navigator: freshNavigator))
    for updater in replayed { fresh.dispatch(updater) }
    #expect(fresh.state.route == ["list", "settings", "about"])
    #expect(freshNavigator.currentRoute == ["list"])

    try await fresh.dispatch(Navigate(to: fresh.state.route))
    #expect(freshNavigator.levelRoutes == [["list"], ["settings", "about"]])
    #expect(fresh.state.route == ["list", "settings", "about"])
  }
}
