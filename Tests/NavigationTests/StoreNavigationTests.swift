import Navigation
import SideEffects
import StateStore
import Testing

/// Opens the detail of a todo from inside a side effect.
struct OpenDetail: SideEffect {
  let id: Int
  func sideEffect(_ context: SideEffectContext<AppState, Dependencies>) async throws {
    try await context.dispatch(Show("detail", context: id))
    await context.dispatch(Bump())
  }
}

@MainActor
@Suite("Navigation through the store")
struct StoreNavigationTests {
  private func makeStore(
    interceptors: [StoreInterceptor<AppState>] = []
  ) -> (Store<AppState, Dependencies>, Navigator) {
    let navigator = makeApp()
    let store = Store(
      initialState: AppState(), dependencies: Dependencies(navigator: navigator),
      interceptors: interceptors)
    return (store, navigator)
  }

  @Test("an awaited dispatch returns once the navigator has done every step")
  func awaitedDispatch() async throws {
    let (store, navigator) = makeStore()
    try await store.dispatch(Show("detail"))
    #expect(navigator.currentRoute == ["list", "detail"])
    try await store.dispatch(Navigate(to: ["list", "settings", "about"]))
    #expect(navigator.currentRoute == ["list", "settings", "about"])
    try await store.dispatch(Hide("settings"))
    #expect(navigator.currentRoute == ["list"])
  }

  @Test("errors reach whoever awaited the dispatch")
  func awaitedError() async throws {
    let (store, _) = makeStore()
    let error = try await #require(throws: NavigationError.self) {
      try await store.dispatch(Show("nowhere"))
    }
    #expect(error.kind == .unhandled)
  }

  @Test("interceptors see Show and Hide, and may replace or drop them")
  func interceptorsSeeRequests() async throws {
    var seen: [String] = []
    let recorder = StoreInterceptor<AppState> { dispatchable, _, next in
      seen.append(String(describing: dispatchable))
      next(dispatchable)
    }
    let redirect = StoreInterceptor<AppState> { dispatchable, _, next in
      if let show = dispatchable as? Show, show.identifier == "secret" {
        next(Show("settings"))
      } else if dispatchable is Hide {
        return  // dropped
      } else {
        next(dispatchable)
      }
    }
    let (store, navigator) = makeStore(interceptors: [recorder, redirect])
    try await store.dispatch(Show("detail"))
    try await store.dispatch(Hide("detail"))
    #expect(navigator.currentRoute == ["list", "detail"])
    try await store.dispatch(Show("secret"))
    #expect(navigator.currentRoute == ["list", "detail", "settings"])
    #expect(
      seen.filter { !$0.contains("SetRoute") }.prefix(3) == [
        #"Show("detail")"#, #"Hide("detail")"#, #"Show("secret")"#,
      ])
  }

  @Test("a request dispatched untyped, as an interceptor does, still runs")
  func untypedRequestRuns() async throws {
    let follow = StoreInterceptor<AppState> { dispatchable, context, next in
      next(dispatchable)
      if let show = dispatchable as? Show, show.identifier == "detail" {
        context.dispatch(Show("comments"))
      }
    }
    let (store, navigator) = makeStore(interceptors: [follow])
    let updates = navigator.routeUpdates()
    try await store.dispatch(Show("detail"))
    for await route in updates where route == ["list", "detail", "comments"] { break }
    #expect(navigator.currentRoute == ["list", "detail", "comments"])
  }

  @Test("an untyped request's error goes to onUnhandledError")
  func untypedError() async throws {
    let (store, _) = makeStore()
    let (errors, continuation) = AsyncStream.makeStream(of: String.self)
    store.onUnhandledError = { error, dispatchable in
      continuation.yield("\(dispatchable): \((error as? NavigationError)?.kind == .unhandled)")
    }
    store.dispatch(any: Show("nowhere"))
    var first: String?
    for await error in errors {
      first = error
      break
    }
    #expect(first == #"Show("nowhere"): true"#)
  }

  @Test("an untyped request on a store without a navigator is reported, not crashed on")
  func noNavigator() async throws {
    let store = Store<Empty, Void>()
    var reported: [NavigationError.Kind] = []
    store.onUnhandledError = { error, _ in
      if let error = error as? NavigationError { reported.append(error.kind) }
    }
    store.dispatch(any: Show("detail"))
    #expect(reported == [.noNavigator])
  }

  @Test("a side effect awaits a Show through its context")
  func sideEffectShows() async throws {
    let (store, navigator) = makeStore()
    try await store.dispatch(OpenDetail(id: 4))
    #expect(navigator.currentRoute == ["list", "detail"])
    let detail = try #require(navigator.topmostRoutable as? Screen)
    #expect(detail.context as? Int == 4)
    #expect(store.state.counter == 1)
  }
}
