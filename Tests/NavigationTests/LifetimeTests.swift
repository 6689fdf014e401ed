import Navigation
import StateStore
import Testing

@MainActor
@Suite("Lifetimes")
struct LifetimeTests {
  @Test("a routable that leaves the route is released")
  func releasedOnLeaving() async throws {
    let tracker = ScreenTracker()
    let navigator = makeApp(tracker: tracker)
    try await navigator.navigate(to: ["list", "detail", "comments", "editor"])
    #expect(tracker.alive == ["detail", "comments", "editor"])
    try await navigator.hide("editor")
    #expect(tracker.alive == ["detail", "comments"])
    try await navigator.navigate(to: ["list", "settings", "about", "confirm"])
    #expect(tracker.alive == ["settings", "about", "confirm"])
    try await navigator.hide("settings")
    #expect(tracker.alive.isEmpty)
  }

  @Test("a routable left behind by a failed step is released too")
  func releasedAfterFailure() async throws {
    let tracker = ScreenTracker()
    let navigator = makeApp(tracker: tracker)
    try await navigator.navigate(to: ["list", "detail", "comments"])
    _ = try? await navigator.navigate(to: ["list", "settings", "nowhere"])
    #expect(tracker.alive == ["settings"])
  }

  @Test("the store, its navigator and the screens are released together")
  func noCycleWithStore() async throws {
    let tracker = ScreenTracker()
    weak var weakStore: Store<AppState, Dependencies>?
    weak var weakNavigator: Navigator?
    do {
      let navigator = makeApp(tracker: tracker)
      let store = Store(
        initialState: AppState(), dependencies: Dependencies(navigator: navigator))
      let token = navigator.observeRoute { _, _ in }
      try await store.dispatch(Navigate(to: ["list", "detail", "comments"]))
      weakStore = store
      weakNavigator = navigator
      token.cancel()
    }
    #expect(weakStore == nil)
    #expect(weakNavigator == nil)
    #expect(tracker.alive.isEmpty)
  }
}
