import Testing

@testable import StateStore

private struct Shell: State {
  var counter = CounterState()
  var elsewhere = 0
}

private struct ChangeElsewhere: StateUpdater {
  func updateState(_ state: inout Shell) { state.elsewhere += 1 }
}

private struct IncrementCounter: StateUpdater {
  func updateState(_ state: inout Shell) { state.counter.value += 1 }
}

@MainActor
@Suite("observeStateChanges: the hook that row view models and parameters are built on")
struct StateChangeObserverTests {
  @Test("the observer gets the current state at once and the new state after every update")
  func atOnceThenEveryUpdate() {
    let store = Store<CounterState, Void>(dependencies: ())
    var seen: [Int] = []
    let token = store.observeStateChanges { seen.append($0.value) }
    store.dispatch(Increment())
    store.dispatch(SetLabel(label: "same value"))
    store.dispatch(Increment(by: 2))
    #expect(seen == [0, 1, 1, 3])
    _ = token
  }

  @Test("cancelling or releasing the token stops it at once")
  func cancellation() {
    let store = Store<CounterState, Void>(dependencies: ())
    var cancelledSeen = 0
    var releasedSeen = 0
    let cancelled = store.observeStateChanges { _ in cancelledSeen += 1 }
    var released: Subscription? = store.observeStateChanges { _ in releasedSeen += 1 }
    cancelled.cancel()
    released = nil
    store.dispatch(Increment())
    #expect(cancelledSeen == 1)
    #expect(releasedSeen == 1)
    _ = released
  }

  @Test("a dispatch from the observer, first call included, is queued after the current one")
  func reentrantDispatchIsQueued() {
    let store = Store<CounterState, Void>(dependencies: ())
    var seen: [Int] = []
    let token = store.observeStateChanges { state in
      seen.append(state.value)
      if state.value < 2 { store.dispatch(Increment()) }
    }
    #expect(seen == [0, 1, 2])
    #expect(store.state.value == 2)
    _ = token
  }

  @Test("it runs before the element subscribers of the same update")
  func runsBeforeElementSubscribers() {
    let store = Store<ListState, Void>(
      initialState: ListState(todos: makeTodos(3)), dependencies: ())
    var order: [String] = []
    let element = store.subscribe(to: \.todos, id: 1) { _ in order.append("element") }
    let observer = store.observeStateChanges { _ in order.append("state") }
    order = []
    store.dispatch(Toggle(id: 1))
    #expect(order == ["state", "element"])
    _ = (element, observer)
  }

  @Test("on a scope it hears changes of the slice made at the root, not only through the scope")
  func onAScope() {
    let root = Store<Shell, Void>(dependencies: ())
    let scope = root.scope(state: \.counter)
    var seen: [Int] = []
    let token = scope.observeStateChanges { seen.append($0.value) }
    root.dispatch(IncrementCounter())
    root.dispatch(ChangeElsewhere())
    scope.dispatch(Increment())
    // A root updater may change any slice: the scope's observer hears the change it made
    // (0 → 1), and not the one that left the `Equatable` slice `==` (ChangeElsewhere).
    #expect(seen == [0, 1, 2])
    _ = token
  }
}
