import Testing

@testable import StateStore

/// A view model that reports the counter's value.
private struct CounterValue: ViewModelWithState, Equatable {
  let value: Int
  init?(state: CounterState) { value = state.value }
}

@MainActor
@Suite("Re-entrancy: first callbacks are store callbacks, and updaters cannot reach the store")
struct ReentrancyGuardTests {
  @Test("a dispatch from a subscriber's first callback is queued, not nested")
  func firstCallbackDispatchIsQueued() {
    let store = Store<CounterState, Void>()
    var seen: [Int] = []
    var depth = 0
    var maxDepth = 0
    let token = store.subscribe(CounterValue.self) { model in
      depth += 1
      maxDepth = max(maxDepth, depth)
      let value = model?.value ?? -1
      seen.append(value)
      if value == 0 {
        store.dispatch(Increment())
        #expect(store.state.value == 0, "the dispatch must wait until the callback returns")
      }
      depth -= 1
    }
    #expect(seen == [0, 1], "the first value first, then the queued change; never stale last")
    #expect(maxDepth == 1)
    #expect(store.state.value == 1)
    _ = token
  }

  @Test("a dispatch from a key-path subscriber's first callback is queued")
  func keyPathFirstCallbackDispatchIsQueued() {
    let store = Store<CounterState, Void>()
    var seen: [Int] = []
    let token = store.subscribe(to: \.value) { value in
      seen.append(value)
      if value == 0 { store.dispatch(Increment(by: 5)) }
      #expect(store.state.value == value)
    }
    #expect(seen == [0, 5])
    _ = token
  }

  @Test("a dispatch from an element subscriber's first callback is queued")
  func elementFirstCallbackDispatchIsQueued() {
    let store = Store<ListState, Void>(initialState: ListState(todos: makeTodos(3)))
    var seen: [Bool?] = []
    let token = store.subscribe(to: \.todos, id: 1) { todo in
      seen.append(todo?.done)
      if todo?.done == false {
        store.dispatch(Toggle(id: 1))
        #expect(store.state.todos[id: 1]?.done == false)
      }
    }
    #expect(seen == [false, true])
    _ = token
  }

  @Test("a subscription made from a listener delivers its first value inside the round")
  func subscribingFromAListenerQueuesItsDispatch() {
    let store = Store<CounterState, Void>()
    var events: [String] = []
    var inner: Subscription?
    let outer = store.addListener { _, new in
      events.append("listener \(new.value)")
      guard inner == nil else { return }
      inner = store.subscribe(to: \.value) { value in
        events.append("subscriber \(value)")
        if value == 1 { store.dispatch(Increment()) }
      }
    }
    store.dispatch(Increment())
    #expect(events == ["listener 1", "subscriber 1", "listener 2", "subscriber 2"])
    _ = (outer, inner)
  }

  @Test("reading the state from inside an updater stops the process with the rule named")
  func readingDuringUpdaterIsStopped() async {
    await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
      await MainActor.run {
        let store = Store<CounterState, Void>()
        store.dispatch(SmugglingUpdater(store: store, subscribe: false))
      }
    }.map { result in
      let message = String(decoding: result.standardErrorContent, as: UTF8.self)
      #expect(message.contains("read store.state while an updater of CounterState was running"))
      #expect(message.contains("An updater must not reach the store"))
    }
  }

  @Test("subscribing from inside an updater stops the process with the rule named")
  func subscribingDuringUpdaterIsStopped() async {
    await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
      await MainActor.run {
        let store = Store<CounterState, Void>()
        store.dispatch(SmugglingUpdater(store: store, subscribe: true))
      }
    }.map { result in
      let message = String(decoding: result.standardErrorContent, as: UTF8.self)
      #expect(message.contains("subscribe while an updater of CounterState was running"))
    }
  }

  @Test("the state stays readable from listeners, subscribers and interceptors")
  func readingOutsideUpdatersIsAllowed() {
    var readByInterceptor: [Int] = []
    let interceptor = StoreInterceptor<CounterState> { dispatchable, context, next in
      next(dispatchable)
      readByInterceptor.append(context.state.value)
    }
    let store = Store<CounterState, Void>(interceptors: [interceptor])
    var readByListener: [Int] = []
    let token = store.addListener { _, _ in readByListener.append(store.state.value) }
    store.dispatch(Increment())
    store.dispatch(Increment())
    #expect(readByListener == [1, 2])
    #expect(readByInterceptor == [1, 2])
    _ = token
  }
}

/// A hostile-but-legal updater: it captured its store and forces its way onto the main actor
/// to read it while it holds the state `inout`.
private struct SmugglingUpdater: StateUpdater {
  let store: Store<CounterState, Void>
  let subscribe: Bool

  func updateState(_ state: inout CounterState) {
    state.value += 1
    MainActor.assumeIsolated {
      if subscribe {
        _ = store.subscribe(to: \.value) { _ in }
      } else {
        _ = store.state
      }
    }
  }
}
