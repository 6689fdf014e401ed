import StateStore
import Synchronization
import Testing

@MainActor
@Suite("Scoped stores: lifetimes")
struct ScopeLifetimeTests {
  @Test("releasing the root and every scope releases everything")
  func releasingEverything() {
    weak var weakRoot: Store<ShellState, Tracked>?
    weak var weakScope: Store<ProfileState, Tracked>?
    weak var weakDependencies: Tracked?
    var token: Subscription?
    do {
      let dependencies = Tracked()
      weakDependencies = dependencies
      let app = Store<ShellState, Tracked>(dependencies: dependencies)
      let profile = app.scope(state: \.profile)
      token = profile.subscribe(to: \.name) { _ in }
      _ = profile.addListener { _, _ in }
      profile.dispatch(RenameProfile(name: "Ada"))
      weakRoot = app
      weakScope = profile
    }
    #expect(weakRoot == nil)
    #expect(weakScope == nil)
    #expect(weakDependencies == nil)
    #expect(token?.isCancelled == false)
  }

  @Test("a scope does not keep its root alive")
  func scopeDoesNotKeepRoot() {
    weak var weakRoot: Store<ShellState, Void>?
    let profile: Store<ProfileState, Void>
    do {
      let app = Store<ShellState, Void>()
      weakRoot = app
      profile = app.scope(state: \.profile)
    }
    #expect(weakRoot == nil)
    _ = profile
  }

  @Test(
    "a scope that outlives its root keeps none of the root's values: its interceptors and what its other scopes captured go with the root"
  )
  func scopeKeepsNoneOfTheRootsValues() {
    weak var weakCaptured: Tracked?
    weak var weakSibling: Store<ProfileState, Void>?
    var errors: [String] = []
    let profile: Store<ProfileState, Void>
    do {
      let captured = Tracked()
      weakCaptured = captured
      let interceptor = StoreInterceptor<ShellState> { dispatchable, _, next in
        _ = captured
        next(dispatchable)
      }
      let app = Store<ShellState, Void>(interceptors: [interceptor])
      profile = app.scope(state: \.profile)
      let sibling = app.scope(state: \.other)
      weakSibling = sibling
      _ = sibling.addListener { _, _ in _ = captured }
      profile.onUnhandledError = { error, _ in errors.append("\(error)") }
      profile.dispatch(RenameProfile(name: "Ada"))
      #expect(app.state.profile.name == "Ada")
    }
    #expect(weakCaptured == nil)
    #expect(weakSibling == nil)
    profile.dispatch(RenameProfile(name: "late"))
    #expect(errors.count == 1)
    #expect(profile.stateIfAvailable == nil)
  }

  @Test("a subscription keeps its scope working while nobody holds the scope")
  func tokenKeepsScope() {
    let app = Store<ShellState, Void>()
    weak var weakScope: Store<ProfileState, Void>?
    var names: [String] = []
    var token: Subscription? = app.scope(state: \.profile).subscribe(to: \.name) {
      names.append($0)
    }
    weakScope = app.scope(state: \.profile)
    #expect(weakScope != nil)
    app.scope(state: \.profile).dispatch(RenameProfile(name: "Ada"))
    #expect(names == ["", "Ada"])
    token?.cancel()
    token = nil
    app.dispatch(BumpCounter())
    #expect(weakScope == nil)
  }

  @Test("a scope that outlives its root reports its dispatches as dropped, without trapping")
  func outlivingTheRoot() {
    var errors: [String] = []
    let profile: Store<ProfileState, Void>
    do {
      let app = Store<ShellState, Void>()
      profile = app.scope(state: \.profile)
    }
    profile.onUnhandledError = { error, _ in errors.append("\(error)") }
    profile.dispatch(RenameProfile(name: "Ada"))
    profile.dispatch(any: RenameProfile(name: "Ada"))
    #expect(errors.count == 2)
    #expect(errors.allSatisfy { $0.contains("root store has been released") })
    #expect(profile.stateIfAvailable == nil)
  }

  @Test(
    "a value in the root's state whose deinit dispatches through a scope, as the root goes: dropped, not applied to a dying root"
  )
  func deinitDispatchesAsTheRootGoes() {
    var errors: [String] = []
    var readDuringDeinit: [String] = []
    let profile: Store<ProfileState, Void>
    do {
      let app = Store<CanaryShell, Void>()
      profile = app.scope(state: \.profile)
      profile.onUnhandledError = { error, _ in errors.append("\(error)") }
      let scope = profile
      app.dispatch(
        SetCanary(
          canary: Canary {
            MainActor.assumeIsolated {
              scope.dispatch(RenameProfile(name: "from a deinit"))
              readDuringDeinit.append(scope.stateIfAvailable?.name ?? "no state")
            }
          }))
    }
    #expect(errors.count == 1)
    #expect(errors.first?.contains("root store has been released") == true)
    #expect(readDuringDeinit == ["no state"])
    #expect(profile.stateIfAvailable == nil)
  }

  @Test(
    "a root whose last reference goes on another thread is deinitialised on the main actor; its scope works until then and reports drops after"
  )
  func releasedOffTheMainActor() async {
    let (signals, signal) = AsyncStream.makeStream(of: Void.self)
    var errors: [String] = []
    let handoff = Handoff()
    handoff.slot.withLock { $0 = Store<CanaryShell, Void>() }
    let root = handoff.slot.withLock { $0 }
    let profile = root?.scope(state: \.profile)
    profile?.onUnhandledError = { error, _ in errors.append("\(error)") }
    root?.dispatch(SetCanary(canary: Canary { signal.yield() }))
    _ = consume root
    // The last reference goes on a thread of the global executor.
    await Task.detached { handoff.slot.withLock { $0 = nil } }.value
    profile?.dispatch(RenameProfile(name: "Ada"))
    var iterator = signals.makeAsyncIterator()
    await iterator.next()
    profile?.dispatch(RenameProfile(name: "Grace"))
    #expect(errors.count >= 1)
    #expect(errors.last?.contains("root store has been released") == true)
    #expect(profile != nil)
    #expect(profile?.stateIfAvailable == nil)
  }

  @Test(
    "a root whose only reference a subscriber drops during a scope's in-place dispatch: that dispatch finishes, the next is dropped"
  )
  func rootReleasedDuringAScopedDispatch() throws {
    var errors: [String] = []
    var heard: [String] = []
    weak var weakRoot: Store<ShellState, Void>?
    var root: Store<ShellState, Void>? = Store<ShellState, Void>()
    weakRoot = root
    let profile = try #require(root?.scope(state: \.profile).scope(state: \.avatar))
    profile.onUnhandledError = { error, _ in errors.append("\(error)") }
    var token: Subscription?
    token = root?.subscribe(to: \.profile.avatar.url) { url in
      heard.append(url)
      // The root's last reference goes inside its own notification of the scope's dispatch.
      if url == "a.png" { root = nil }
    }
    profile.dispatch(SetAvatar(url: "a.png"))
    #expect(heard == ["", "a.png"])
    #expect(weakRoot == nil)
    profile.dispatch(SetAvatar(url: "b.png"))
    #expect(errors.count == 1)
    #expect(errors.first?.contains("root store has been released") == true)
    withExtendedLifetime(token) {}
  }

  @Test(
    "a slice kept for a scope's (old, new) listener, whose value's release adds a listener and dispatches: released after the listeners heard it"
  )
  func capturedSliceReleaseSubscribes() {
    let app = Store<CanaryFeatureShell, Void>()
    let feature = app.scope(state: \.feature)
    let log = ListenerLog()
    log.tokens.append(
      feature.addListener { old, new in
        log.heard.append("\(old.name)|\(old.canary == nil ? "none" : "canary") > \(new.name)")
      })
    feature.dispatch(
      ReplaceFeatureCanary(
        canary: Canary {
          MainActor.assumeIsolated {
            log.tokens.append(
              feature.addListener { _, new in log.heard.append("late \(new.name)") })
            feature.dispatch(RenameFeature(name: "from a deinit"))
          }
        }))
    // The slice captured before this update is the canary's last holder once the update
    // drops it from the state: it goes after this update's listeners heard it.
    feature.dispatch(ReplaceFeatureCanary(canary: nil))
    #expect(app.state.feature.name == "from a deinit")
    #expect(
      log.heard == [
        "|none > ", "|canary > ", "|none > from a deinit", "late from a deinit",
      ])
  }

  @Test(
    "a value whose deinit dispatches through the scope that replaced it in place: queued behind that dispatch, each change heard once, in order"
  )
  func deinitDispatchesDuringAnInPlaceScopedDispatch() {
    let app = Store<CanaryFeatureShell, Void>()
    let feature = app.scope(state: \.feature)
    // Every update, with the state after it; no `(old, new)` listener, whose copy of the old
    // state would keep the canary alive until after the in-place access.
    var heard: [String] = []
    let token = app.observeStateChanges { state in
      heard.append("\(state.feature.name)|\(state.feature.canary == nil ? "none" : "canary")")
    }
    feature.dispatch(
      ReplaceFeatureCanary(
        canary: Canary {
          MainActor.assumeIsolated { feature.dispatch(RenameFeature(name: "from a deinit")) }
        }))
    // Releases the canary inside the in-place dispatch's access to the state.
    feature.dispatch(ReplaceFeatureCanary(canary: nil))
    #expect(app.state.feature.name == "from a deinit")
    #expect(app.state.feature.canary == nil)
    #expect(heard == ["|none", "|canary", "|none", "from a deinit|none"])
    withExtendedLifetime(token) {}
  }
  @Test(
    "a scope's state is available exactly while its slice exists: its root alive, its element present"
  )
  func stateIfAvailable() {
    let app = Store<ShellState, Void>(
      initialState: ShellState(rows: [Row(id: 1, title: "a"), Row(id: 2, title: "b")]))
    let row = app.scope(state: \.rows, id: 2)
    #expect(app.stateIfAvailable == app.state)
    #expect(row.stateIfAvailable == Row(id: 2, title: "b"))
    #expect(row.state == Row(id: 2, title: "b"))
    app.dispatch(RemoveRow(id: 2))
    #expect(row.stateIfAvailable == nil)
    #expect(app.scope(state: \.rows, id: 1).stateIfAvailable?.title == "a")
  }

  @Test("a handle on a scope whose slice is gone reads nil, as a handle on a released store does")
  func handleOnAGoneSlice() {
    let app = Store<ShellState, Void>(initialState: ShellState(rows: [Row(id: 4, title: "d")]))
    let row = app.scope(state: \.rows, id: 4)
    let handle = row.handle
    #expect(handle.state == Row(id: 4, title: "d"))
    app.dispatch(RemoveRow(id: 4))
    #expect(handle.store != nil)
    #expect(handle.state == nil)
  }

  @Test(
    "subscribing to a scope whose slice is gone delivers nothing and gives a token that does nothing"
  )
  func subscribingToAGoneSlice() {
    let app = Store<ShellState, Void>(initialState: ShellState(rows: [Row(id: 2, title: "b")]))
    let row = app.scope(state: \.rows, id: 2)
    app.dispatch(RemoveRow(id: 2))
    var heard: [String] = []
    let byPath = row.subscribe(to: \.title) { heard.append("path \($0)") }
    let byModel = row.subscribe(RowHeading.self) { heard.append("model \(String(describing: $0))") }
    let list: Store<RowList, Void>
    do {
      let board = Store<Board, Void>(initialState: Board(list: RowList(rows: [Row(id: 1)])))
      list = board.scope(state: \.list)
      #expect(list.stateIfAvailable?.rows.count == 1)
    }
    var elements: [Row?] = []
    let byElement = list.subscribe(to: \.rows, id: 1) { elements.append($0) }
    #expect(heard.isEmpty)
    #expect(elements == [nil])
    app.dispatch(BumpCounter())
    #expect(heard.isEmpty)
    byPath.cancel()
    byElement.cancel()
    #expect(byPath.isCancelled && byElement.isCancelled)
    withExtendedLifetime(byModel) {}
  }

  @Test(
    "reading the state of a scope whose root was released stops the process, naming the scope and why"
  )
  func stateOfAReleasedRootStops() async {
    await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
      await MainActor.run {
        var app: Store<ShellState, Void>? = Store<ShellState, Void>()
        let avatar = app?.scope(state: \.profile).scope(state: \.avatar)
        app = nil
        _ = (app, avatar?.state)
      }
    }.map { result in
      let message = String(decoding: result.standardErrorContent, as: UTF8.self)
      #expect(message.contains("read store.state on the scope \"profile/avatar\""))
      #expect(message.contains("its root store has been released"))
      #expect(message.contains("read stateIfAvailable there"))
    }
  }

  @Test(
    "reading the state of an element scope whose element was removed stops the process, naming the element"
  )
  func stateOfARemovedElementStops() async {
    await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
      await MainActor.run {
        let app = Store<ShellState, Void>(initialState: ShellState(rows: [Row(id: 7)]))
        let row = app.scope(state: \.rows, id: 7)
        app.dispatch(RemoveRow(id: 7))
        _ = row.state
      }
    }.map { result in
      let message = String(decoding: result.standardErrorContent, as: UTF8.self)
      #expect(message.contains("its element (id 7) was removed"))
    }
  }
}

/// What a test's listeners heard, and their tokens, for closures the application's code runs.
@MainActor
final class ListenerLog: Sendable {
  var heard: [String] = []
  var tokens: [Subscription] = []
}

/// A root whose state holds a ``Canary``.
struct CanaryShell: State {
  var profile = ProfileState()
  var canary: Canary?
}

/// Runs `onDeinit` when released: the application's code, run by the root's destruction.
final class Canary: Sendable {
  let onDeinit: @Sendable () -> Void
  init(_ onDeinit: @escaping @Sendable () -> Void) { self.onDeinit = onDeinit }
  deinit { onDeinit() }
}

struct SetCanary: StateUpdater {
  let canary: Canary
  func updateState(_ state: inout CanaryShell) { state.canary = canary }
}

/// Holds a store so that a test can drop its last reference on the thread it chooses.
final class Handoff: Sendable {
  let slot = Mutex<Store<CanaryShell, Void>?>(nil)
}

/// A root whose feature's state holds a ``Canary``.
struct CanaryFeatureShell: State {
  var feature = CanaryFeature()
}

/// A feature's state that holds a ``Canary``.
struct CanaryFeature: State {
  var name = ""
  var canary: Canary?
}

struct ReplaceFeatureCanary: StateUpdater {
  let canary: Canary?
  func updateState(_ state: inout CanaryFeature) { state.canary = canary }
}

struct RenameFeature: StateUpdater {
  let name: String
  func updateState(_ state: inout CanaryFeature) { state.name = name }

}

/// A row's heading, for a view-model subscriber of an element scope.
private struct RowHeading: ViewModelWithState {
  let text: String
  init?(state: Row) { text = state.title }
}

/// A root whose list sits one level down, for a scope that holds a tracked array.
private struct Board: State {
  var list = RowList()
}

private struct RowList: State, Equatable {
  var rows = TrackedArray<Row>()
}
