import StateStore
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
    #expect(profile.state == ProfileState())
  }
}
