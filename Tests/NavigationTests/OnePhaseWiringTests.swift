import Navigation
import SideEffects
import StateStore
import Testing

/// A screen that reaches the store through a handle it holds strongly, with no guard.
@MainActor
private final class HandleScreen: RoutableWithConfiguration {
  let routeIdentifier: RouteElementIdentifier
  let store: StoreHandle<AppState, Dependencies>
  /// An interaction closure, as a view would hold: it captures the handle as is.
  var didTapBump: () -> Void = {}

  init(_ identifier: RouteElementIdentifier, store: StoreHandle<AppState, Dependencies>) {
    self.routeIdentifier = identifier
    self.store = store
    didTapBump = { [store] in store.dispatch(Bump()) }
  }

  var navigationConfiguration: [NavigationRequest: NavigationInstruction] {
    let store = store
    return [
      .show("confirm"): .presentModally { _ in HandleScreen("confirm", store: store) },
      .hide("confirm"): .dismissModally(behaviour: .soft),
    ]
  }

  func confirm() async throws {
    try await store.dispatch(Finish("confirm", with: true))
  }

  func askToConfirm() async throws -> Bool {
    try await store.dispatch(ShowForResult("confirm", of: Bool.self)) ?? false
  }
}

@MainActor
@Suite("One-phase wiring", .timeLimit(.minutes(5)))
struct OnePhaseWiringTests {
  @Test("the store and its navigator first, the root screen later, with no attach step")
  func storeThenRoot() async throws {
    weak var weakStore: Store<AppState, Dependencies>?
    weak var weakRoot: HandleScreen?
    weak var weakModal: HandleScreen?
    do {
      let store = Store(
        initialState: AppState(), dependencies: Dependencies(navigator: Navigator()))
      let navigator = store.dependencies.navigator
      let root = HandleScreen("list", store: store.handle)
      try await navigator.changeRoot(to: root)
      root.didTapBump()
      #expect(store.state.counter == 1)

      let asking = Task { try await root.askToConfirm() }
      await waitUntil(navigator, shows: ["list", "confirm"])
      let modal = try #require(navigator.topmostRoutable as? HandleScreen)
      weakModal = modal
      try await modal.confirm()
      #expect(try await asking.value == true)
      #expect(store.state.route == ["list"])
      weakStore = store
      weakRoot = root
    }
    #expect(weakStore == nil)
    #expect(weakRoot == nil)
    #expect(weakModal == nil)
  }

  @Test("a root factory builds the root from the context ChangeRoot carries")
  func rootFromFactory() async throws {
    let navigator = Navigator(rootFactories: [
      "list": { context in
        struct MissingHandle: Error {}
        guard let store = context as? StoreHandle<AppState, Dependencies> else {
          throw MissingHandle()
        }
        return HandleScreen("list", store: store)
      }
    ])
    let store = Store(initialState: AppState(), dependencies: Dependencies(navigator: navigator))
    try await store.dispatch(ChangeRoot(to: "list", context: store.handle))
    #expect(store.state.route == ["list"])
    try await store.handle.dispatch(Show("confirm"))
    #expect(navigator.currentRoute == ["list", "confirm"])
  }

  @Test("a handle whose store is released drops updaters and throws on awaited dispatches")
  func releasedHandle() async throws {
    var store: Store<AppState, Dependencies>? = Store(
      initialState: AppState(), dependencies: Dependencies(navigator: Navigator()))
    let handle = try #require(store?.handle)
    handle.dispatch(Bump())
    #expect(handle.state?.counter == 1)
    store = nil
    #expect(handle.store == nil)
    handle.dispatch(Bump())
    #expect(handle.state == nil)
    await #expect(throws: StoreReleasedError.self) { try await handle.dispatch(Show("x")) }
  }
}
