import StateStore
import Testing

@MainActor
@Suite("Scoped stores: one state, one queue")
struct ScopeTests {
  @Test("a scope's dispatch changes the root's slice, and both read the same value")
  func dispatchChangesTheRootSlice() {
    let app = Store<ShellState, Void>()
    let profile = app.scope(state: \.profile)
    profile.dispatch(RenameProfile(name: "Ada"))
    #expect(app.state.profile.name == "Ada")
    #expect(profile.state == app.state.profile)
    app.dispatch(BumpCounter())
    #expect(profile.state == app.state.profile)
  }

  @Test("the same slice gives the same scope while it is alive")
  func sameSliceSameScope() {
    let app = Store<ShellState, Void>()
    #expect(app.scope(state: \.profile) === app.scope(state: \.profile))
    #expect(app.scope(state: \.profile) !== app.scope(state: \.other))
    #expect(app.scope(state: \.profile).scopePath == "profile")
    #expect(app.scopePath == nil)
  }

  @Test("dispatches through a scope join the root's FIFO queue, and root listeners see them")
  func oneQueue() {
    let app = Store<ShellState, Void>()
    let profile = app.scope(state: \.profile)
    var seen: [String] = []
    let token = app.addListener { old, new in
      seen.append("\(old.counter)->\(new.counter) \(new.profile.name)")
      if old.counter == 0, new.counter == 1 { profile.dispatch(RenameProfile(name: "queued")) }
      if old.profile.name.isEmpty, new.profile.name == "queued" { app.dispatch(BumpCounter()) }
    }
    app.dispatch(BumpCounter())
    #expect(seen == ["0->1 ", "1->1 queued", "1->2 queued"])
    token.cancel()
  }

  @Test("a scope's listener gets (old, new) of the slice, only when the slice changed")
  func scopeListenerOnlyOnChange() {
    let app = Store<ShellState, Void>()
    let profile = app.scope(state: \.profile)
    var pairs: [(String, String)] = []
    let token = profile.addListener { old, new in pairs.append((old.name, new.name)) }
    app.dispatch(BumpCounter())
    app.scope(state: \.other).dispatch(RenameProfile(name: "elsewhere"))
    profile.dispatch(RenameProfile(name: "Ada"))
    profile.dispatch(RenameProfile(name: "Ada"))
    #expect(pairs.count == 1)
    #expect(pairs.first?.0 == "" && pairs.first?.1 == "Ada")
    token.cancel()
  }

  @Test("a scope's view-model subscriber is evaluated only when its slice may have changed")
  func viewModelSubscriber() {
    let app = Store<ShellState, Void>()
    let profile = app.scope(state: \.profile)
    var titles: [String?] = []
    let token = profile.subscribe(ProfileTitle.self) { titles.append($0?.text) }
    let subscribed = profileTitleEvaluations
    profile.dispatch(RenameProfile(name: "Ada"))
    #expect(profileTitleEvaluations == subscribed + 1)
    // A sibling's bytes, and a root update that leaves the slice `==`: neither evaluates it.
    app.scope(state: \.other).dispatch(RenameProfile(name: "x"))
    app.dispatch(BumpCounter())
    #expect(profileTitleEvaluations == subscribed + 1)
    // A dispatch through the scope itself may change the slice: evaluated (the slice kept for
    // `==` is dropped first, so that the dispatch mutates in place), deduplicated.
    profile.dispatch(RenameProfile(name: "Ada"))
    #expect(profileTitleEvaluations == subscribed + 2)
    app.dispatch(BumpCounter())
    #expect(profileTitleEvaluations == subscribed + 2)
    #expect(titles == [nil, "Hello, Ada"])
    token.cancel()
  }

  @Test("a scope whose slice is not Equatable skips only updates of other bytes")
  func viewModelSubscriberOfAPlainSlice() {
    let app = Store<PlainShell, Void>()
    let first = app.scope(state: \.first)
    var names: [String?] = []
    let token = first.subscribe(PlainTitle.self) { names.append($0?.text) }
    let subscribed = plainTitleEvaluations
    app.scope(state: \.second).dispatch(RenamePlain(name: "elsewhere"))
    #expect(plainTitleEvaluations == subscribed)
    // Nothing tells a root update's bytes, and the slice cannot be compared.
    app.dispatch(BumpPlainCounter())
    #expect(plainTitleEvaluations == subscribed + 1)
    first.dispatch(RenamePlain(name: "Ada"))
    #expect(plainTitleEvaluations == subscribed + 2)
    #expect(names == ["", "Ada"])
    token.cancel()
  }

  @Test("scoped key-path subscribers dedup as at the root")
  func keyPathSubscriber() {
    let app = Store<ShellState, Void>()
    let profile = app.scope(state: \.profile)
    var names: [String] = []
    let token = profile.subscribe(to: \.name) { names.append($0) }
    profile.dispatch(RenameProfile(name: "a"))
    app.dispatch(BumpCounter())
    profile.dispatch(RenameProfile(name: "a"))
    profile.dispatch(RenameProfile(name: "b"))
    #expect(names == ["", "a", "b"])
    token.cancel()
  }

  @Test("a scope writes its own slice only, not a sibling of the same type")
  func scopeWritesItsOwnSlice() {
    let app = Store<ShellState, Void>()
    app.scope(state: \.other).dispatch(RenameProfile(name: "Other"))
    app.scope(state: \.profile).dispatch(RenameProfile(name: "Ada"))
    #expect(app.state.other.name == "Other")
    #expect(app.state.profile.name == "Ada")
    #expect(app.state.counter == 0)
  }

  @Test("a scope of a property with a didSet runs the observer once per dispatch")
  func scopeRunsPropertyObservers() {
    let app = Store<ObservedShellState, Void>()
    let profile = app.scope(state: \.profile)
    profile.dispatch(RenameProfile(name: "Ada"))
    profile.dispatch(RenameProfile(name: "Grace"))
    #expect(app.state.profile.name == "Grace")
    #expect(app.state.profileWrites == 2)
  }

  @Test("a scope of a scope reads and writes the root's nested slice")
  func scopeOfScope() {
    let app = Store<ShellState, Void>()
    let avatar = app.scope(state: \.profile).scope(state: \.avatar)
    var urls: [String] = []
    let token = avatar.subscribe(to: \.url) { urls.append($0) }
    avatar.dispatch(SetAvatar(url: "a.png"))
    #expect(app.state.profile.avatar.url == "a.png")
    #expect(avatar.state.url == "a.png")
    #expect(avatar.scopePath == "profile/avatar")
    #expect(urls == ["", "a.png"])
    token.cancel()
  }

  @Test("element subscribers under a scope are delivered for the changed rows only")
  func elementSubscribersUnderScope() {
    struct Feature: State, Equatable { var rows = TrackedArray<Row>() }
    struct Shell: State, Equatable { var feature = Feature() }
    struct ToggleAt: StateUpdater {
      let id: Int
      func updateState(_ state: inout Feature) { state.rows[id: id]?.done.toggle() }
    }
    var shell = Shell()
    for id in 0..<100 { shell.feature.rows.append(Row(id: id, title: "\(id)")) }
    let app = Store<Shell, Void>(initialState: shell)
    let feature = app.scope(state: \.feature)
    var deliveries: [Int] = []
    var tokens: [Subscription] = []
    for id in 0..<100 {
      tokens.append(
        feature.subscribe(to: \.rows, id: id) { row in deliveries.append(row?.id ?? -1) })
    }
    deliveries.removeAll()
    feature.dispatch(ToggleAt(id: 7))
    feature.dispatch(ToggleAt(id: 42))
    #expect(deliveries == [7, 42])
    tokens.removeAll()
  }

  @Test("an element scope's state is its element; after removal its dispatches are reported")
  func elementScope() {
    var initial = ShellState()
    initial.rows.append(Row(id: 1, title: "one"))
    initial.rows.append(Row(id: 2, title: "two"))
    let app = Store<ShellState, Void>(initialState: initial)
    var errors: [String] = []
    app.onUnhandledError = { error, _ in errors.append("\(error)") }
    let row = app.scope(state: \.rows, id: 2)
    #expect(row.state.title == "two")
    row.dispatch(ToggleRow())
    #expect(app.state.rows[id: 2]?.done == true)
    #expect(app.state.rows[id: 1]?.done == false)
    app.dispatch(RemoveRow(id: 2))
    row.dispatch(ToggleRow())
    #expect(errors.count == 1)
    #expect(errors.first?.contains("id 2") == true)
    #expect(app.state.rows.count == 1)
  }

  @Test("root interceptors see scoped updaters: the scope and the wrapped updater")
  func interceptorsSeeScopedUpdaters() {
    let seen = Recorder()
    let interceptor = StoreInterceptor<ShellState> { dispatchable, _, next in
      if let scoped = dispatchable as? any ScopedUpdaterProtocol {
        seen.append("\(scoped.scopePath.joined(separator: "/")): \(scoped.innermostUpdater)")
      }
      next(dispatchable)
    }
    let app = Store<ShellState, Void>(interceptors: [interceptor])
    app.scope(state: \.profile).dispatch(RenameProfile(name: "Ada"))
    app.scope(state: \.profile).scope(state: \.avatar).dispatch(SetAvatar(url: "u"))
    #expect(
      seen.items == [
        "profile: RenameProfile(name: \"Ada\")", "profile/avatar: SetAvatar(url: \"u\")",
      ])
    #expect(app.state.profile.name == "Ada")
    #expect(app.state.profile.avatar.url == "u")
  }

  @Test("an interceptor that drops a scoped updater drops it")
  func interceptorDrops() {
    let interceptor = StoreInterceptor<ShellState> { dispatchable, _, next in
      if dispatchable is any ScopedUpdaterProtocol { return }
      next(dispatchable)
    }
    let app = Store<ShellState, Void>(interceptors: [interceptor])
    app.scope(state: \.profile).dispatch(RenameProfile(name: "Ada"))
    #expect(app.state.profile.name == "")
  }

  @Test("a scope's update observer sees the feature's updaters with their sequence")
  func scopeUpdateObserver() {
    let app = Store<ShellState, Void>()
    let profile = app.scope(state: \.profile)
    var seen: [String] = []
    let token = profile.observeUpdates { seen.append("\($0.sequence) \($0.updater)") }
    app.dispatch(BumpCounter())
    profile.dispatch(RenameProfile(name: "Ada"))
    #expect(seen == ["2 RenameProfile(name: \"Ada\")"])
    token.cancel()
  }

  @Test(
    "a scope of a scope whose slice lies past the root's first field changes exactly its own bytes, at its offset in the root"
  )
  func scopeAtAnOffsetChangesItsOwnSlice() {
    let app = Store<ShellState, Void>()
    let avatar = app.scope(state: \.other).scope(state: \.avatar)
    let before = app.state
    avatar.dispatch(SetAvatar(url: "deep.png"))
    var expected = before
    expected.other.avatar.url = "deep.png"
    #expect(app.state == expected)
    #expect(avatar.state.url == "deep.png")
    app.scope(state: \.other).dispatch(RenameProfile(name: "Other"))
    expected.other.name = "Other"
    #expect(app.state == expected)
    #expect(avatar.state.url == "deep.png")
  }
}

/// Collects strings from `@Sendable` interceptor closures, on the main actor.
@MainActor
final class Recorder: Sendable {
  private(set) var items: [String] = []
  nonisolated init() {}
  func append(_ item: String) { items.append(item) }
}
