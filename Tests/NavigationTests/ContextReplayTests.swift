import ActionLog
import Foundation
import Navigation
import StateStore
import Testing

/// A state that records the contexts of the route beside it.
struct ContextState: RouteContextHoldingState, Equatable {
  var route: Route = ["list"]
  var routeContexts = RouteContexts()
}

/// A detail screen whose factory needs its todo's id, as the documented pattern does.
@MainActor
private func makeDetailApp() -> Navigator {
  Navigator(root: makeListScreen())
}

/// The list screen of the detail app: it shows a detail, a tag or a plain screen.
@MainActor
private func makeListScreen() -> Screen {
  struct MissingID: Error {}
  return Screen(
    "list",
    [
      .show("detail"): .push { context in
        guard let id = context as? Int else { throw MissingID() }
        return Screen("detail", context: id)
      },
      .show("tag"): .push { context in Screen("tag", context: context) },
      .show("plain"): .push { _ in Screen("plain") },
    ])
}

@MainActor
@Suite("Replay rebuilds the screens with their contexts")
struct ContextReplayTests {
  @Test("recorded SetRoute updaters carry the contexts; Navigate(restoring:) rebuilds the screens")
  func replayWithContexts() async throws {
    let navigator = makeDetailApp()
    let store = Store(
      initialState: ContextState(), dependencies: Dependencies(navigator: navigator))
    var recorded: [SetRoute<ContextState>] = []
    let token = store.observeUpdates { update in
      if let setRoute = update.updater as? SetRoute<ContextState> { recorded.append(setRoute) }
    }
    try await store.dispatch(Show("detail", context: 42))
    try await store.dispatch(Show("tag", context: "urgent"))
    token.cancel()
    let contexts = try store.state.routeContexts.decoded(
      along: store.state.route, as: [Int.self, String.self])
    #expect(contexts.count == 2)
    #expect(contexts["detail"] as? Int == 42)
    #expect(contexts["tag"] as? String == "urgent")

    let data = try JSONEncoder().encode(recorded)
    let replayed = try JSONDecoder().decode([SetRoute<ContextState>].self, from: data)
    let freshNavigator = makeDetailApp()
    let fresh = Store(
      initialState: ContextState(), dependencies: Dependencies(navigator: freshNavigator))
    for updater in replayed { fresh.dispatch(updater) }
    #expect(fresh.state == store.state)

    try await fresh.dispatch(
      Navigate(restoring: fresh.state, contextTypes: [Int.self, String.self]))
    #expect(freshNavigator.currentRoute == ["list", "detail", "tag"])
    let rebuilt = freshNavigator.visibleRoutables.compactMap { ($0 as? Screen)?.context }
    #expect(rebuilt.first as? Int == 42)
    #expect(rebuilt.last as? String == "urgent")
  }

  @Test("without its contexts, the detail screen cannot be rebuilt: the error names the factory")
  func withoutContextsFails() async throws {
    let navigator = makeDetailApp()
    let error = try await #require(throws: NavigationError.self) {
      try await navigator.navigate(to: ["list", "detail"])
    }
    #expect(error.kind == .factoryFailed)
    #expect(error.navigationTarget == ["list", "detail"])
  }

  @Test("a context that cannot be encoded is a clear error at record time")
  func unencodableContext() async throws {
    struct Handle: Sendable {}
    let navigator = makeDetailApp()
    let store = Store(
      initialState: ContextState(), dependencies: Dependencies(navigator: navigator))
    var reported: [any Error] = []
    store.onUnhandledError = { error, _ in reported.append(error) }
    try await store.dispatch(Show("tag", context: Handle()))
    let error = try #require(reported.first as? RouteContextEncodingError)
    #expect(error.identifier == "tag")
    #expect(error.position == 1)
    #expect(error.description.contains("Handle"))
    #expect(store.state.route == ["list", "tag"])
  }

  @Test("a recorded context whose type is not given is a clear error when restoring")
  func unknownType() async throws {
    let navigator = makeDetailApp()
    let store = Store(
      initialState: ContextState(), dependencies: Dependencies(navigator: navigator))
    try await store.dispatch(Show("detail", context: 1))
    #expect(throws: RouteContextDecodingError.self) {
      try Navigate(restoring: store.state, contextTypes: [String.self])
    }
  }

  @Test(
    "logs written before contexts existed still decode, and states without contexts record as before"
  )
  func oldLogs() throws {
    let old = Data(#"{"route":["list","detail"]}"#.utf8)
    let decoded = try JSONDecoder().decode(SetRoute<ContextState>.self, from: old)
    #expect(decoded == SetRoute(["list", "detail"]))
    var state = ContextState()
    decoded.updateState(&state)
    #expect(state.route == ["list", "detail"])
    let encoded = try JSONEncoder().encode(SetRoute<AppState>(["list"]))
    #expect(String(decoding: encoded, as: UTF8.self) == #"{"route":["list"]}"#)
  }

  @Test("an action log records the contexts and a replay restores them")
  func throughTheActionLog() async throws {
    let registry = ActionLogRegistry<ContextState>().register(SetRoute<ContextState>.self)
    let navigator = makeDetailApp()
    let store = Store(
      initialState: ContextState(), dependencies: Dependencies(navigator: navigator))
    let recorder = try ActionRecorder(store: store, registry: registry, destination: .memory)
    try await store.dispatch(Show("detail", context: 5))
    let replayed = try ActionReplayer(registry: registry)
      .replay(recorder.recordedData, initialState: ContextState())
    #expect(replayed == store.state)
    let freshNavigator = makeDetailApp()
    try await freshNavigator.navigate(
      to: replayed.route,
      contexts: replayed.routeContexts.decoded(along: replayed.route, as: [Int.self]))
    #expect(freshNavigator.routeContexts.last as? Int == 5)
  }
}

/// A recordable state of a started app: its route, mirrored by the navigator.
struct StartedAppState: RouteContextHoldingState, Codable, Equatable {
  var route: Route = []
  var routeContexts = RouteContexts()
}

@MainActor
@Suite("A session of a started app replays from what it recorded")
struct StartedAppReplayTests {
  @Test("the navigator's first mirror is in checkpoint 0: replay starts there, not at State()")
  func replaysFromTheFirstCheckpoint() async throws {
    // Started as the wiring article starts an app: a placeholder root, the mirror, the root.
    let navigator = Navigator()
    let store = Store(
      initialState: StartedAppState(), dependencies: Dependencies(navigator: navigator))
    navigator.mirrorRoute(into: store)
    try await navigator.changeRoot(to: makeListScreen())
    #expect(store.state.route == ["list"])
    let registry = ActionLogRegistry<StartedAppState>()
      .register(SetRoute<StartedAppState>.self, name: "SetRoute")
    let recorder = try ActionRecorder(
      store: store, registry: registry, destination: .memory,
      options: .init(checkpointInterval: 100))
    try await store.dispatch(Show("detail", context: 42))
    let log = recorder.recordedData
    // The documented default diverges before entry 1: the mirror came before the recorder.
    #expect(throws: ActionLogError.self) {
      try ActionReplayer(registry: registry).replay(log, initialState: StartedAppState())
    }
    #expect(try ActionReplayer(registry: registry).replay(log) == store.state)
  }
}
