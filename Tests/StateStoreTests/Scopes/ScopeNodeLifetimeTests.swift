import StateStore
import Testing

/// Runs an action of the test's when it is released, as a value captured by a subscriber might.
@MainActor
final class ReleaseAction {
  let action: @MainActor () -> Void

  init(_ action: @escaping @MainActor () -> Void) {
    self.action = action
  }

  isolated deinit {
    action()
  }
}

struct RenameOther: StateUpdater {
  let name: String
  func updateState(_ state: inout ShellState) { state.other.name = name }
}

/// The references to a scope's registration that do not keep it alive (`Store.ownScopeNode`,
/// an element group's node) against subscribers that cancel, release and subscribe from inside
/// the update that drops a registration.
@MainActor
@Suite("Scoped stores: registrations dropped during an update")
struct ScopeNodeLifetimeTests {
  @Test("a scope left without subscribers and subscribed again in the same update keeps hearing")
  func resubscribedInTheUpdateThatDropsIt() {
    let app = Store<ShellState, Void>()
    let profile = app.scope(state: \.profile)
    let other = app.scope(state: \.other)
    var names: [String] = []
    var firstToken: Subscription? = profile.subscribe(to: \.name) { _ in }
    var laterToken: Subscription?
    let otherToken = other.subscribe(to: \.name) { name in
      guard name == "go" else { return }
      laterToken = profile.subscribe(to: \.name) { names.append($0) }
    }
    firstToken?.cancel()
    firstToken = nil
    // The profile scope is visited first, finds no subscriber and is dropped; the other
    // scope's subscriber then subscribes to it again, in the same update.
    app.dispatch(RenameOther(name: "go"))
    profile.dispatch(RenameProfile(name: "Ada"))
    app.dispatch(BumpCounter())
    profile.dispatch(RenameProfile(name: "Grace"))
    #expect(names == ["", "Ada", "Grace"])
    _ = (otherToken, laterToken)
  }

  @Test("a scope released from its own callback, whose captures dispatch and subscribe")
  func releasedFromItsOwnCallback() {
    let app = Store<ShellState, Void>(
      initialState: ShellState(rows: TrackedArray([Row(id: 0), Row(id: 1)])))
    weak var weakRow: Store<Row, Void>?
    var heard: [Bool] = []
    var laterTokens: [Subscription] = []
    var token: Subscription?
    do {
      let row = app.scope(state: \.rows, id: 0)
      weakRow = row
      let hook = ReleaseAction {
        app.dispatch(BumpCounter())
        laterTokens.append(
          app.scope(state: \.rows, id: 1).subscribe(to: \.done) { heard.append($0) })
      }
      token = row.subscribe(to: \.done) { done in
        _ = hook
        if done { token?.cancel() }
      }
      row.dispatch(ToggleRow())
    }
    // Cancelling released the callback and the hook, inside the callback: the hook's dispatch
    // was queued, and its sweep dropped the row's registration inside the group's refresh,
    // releasing the scope there while the hook's new subscriber waited to join the group.
    app.dispatch(BumpCounter())
    #expect(weakRow == nil)
    #expect(app.state.counter == 2)
    #expect(heard == [false])
    app.scope(state: \.rows, id: 1).dispatch(ToggleRow())
    #expect(heard == [false, true])
    #expect(app.state.rows[id: 1]?.done == true)
  }

  @Test("an element scope's group, dropped with its last member and made again, hears listeners")
  func groupMadeAgain() {
    let app = Store<ShellState, Void>(initialState: ShellState(rows: TrackedArray([Row(id: 0)])))
    let row = app.scope(state: \.rows, id: 0)
    var first: Subscription? = row.addListener { _, _ in }
    first?.cancel()
    first = nil
    app.dispatch(BumpCounter())
    var changes: [Bool] = []
    let token = row.addListener { old, new in changes.append(old.done != new.done) }
    row.dispatch(ToggleRow())
    app.dispatch(BumpCounter())
    row.dispatch(ToggleRow())
    #expect(changes == [true, true])
    _ = token
  }

  @Test("an element scope that outlives its root and its group takes listeners and reports")
  func elementScopeOutlivesItsGroup() {
    weak var weakRoot: Store<ShellState, Void>?
    let row: Store<Row, Void>
    var tokens: [Subscription] = []
    var errors: [String] = []
    do {
      let app = Store<ShellState, Void>(initialState: ShellState(rows: TrackedArray([Row(id: 0)])))
      weakRoot = app
      row = app.scope(state: \.rows, id: 0)
      tokens.append(row.subscribe(to: \.done) { _ in })
      tokens.append(row.addListener { _, _ in })
      row.dispatch(ToggleRow())
    }
    // The root went, and with it the group and the row's registration, which the row forgets.
    #expect(weakRoot == nil)
    row.onUnhandledError = { error, _ in errors.append("\(error)") }
    tokens.append(row.addListener { _, _ in })
    for token in tokens { token.cancel() }
    row.dispatch(ToggleRow())
    #expect(errors.count == 1)
  }
}
