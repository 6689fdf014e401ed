import Foundation
import Testing

@testable import StateStore

@MainActor
@Suite("Lifetimes: cancellation, released tokens and released stores")
struct LifetimeTests {
  @Test("cancel() stops delivery at once, even to a later listener of the same round")
  func cancelMidRound() {
    let store = Store<CounterState, Void>()
    var calls: [String] = []
    var second: Subscription?
    let first = store.addListener { _, _ in
      calls.append("first")
      second?.cancel()
    }
    second = store.addListener { _, _ in calls.append("second") }
    store.dispatch(Increment())
    store.dispatch(Increment())
    #expect(calls == ["first", "first"])
    #expect(second?.isCancelled == true)
    _ = first
  }

  @Test("cancelling a subscriber mid-round stops its delivery in that round")
  func cancelSubscriberMidRound() {
    let store = Store<CounterState, Void>()
    var delivered: [Int] = []
    var subscription: Subscription?
    let listener = store.addListener { _, _ in subscription?.cancel() }
    subscription = store.subscribe(ValueModel.self) { delivered.append($0?.value ?? -1) }
    store.dispatch(Increment())
    #expect(delivered == [0])
    _ = listener
  }

  @Test("releasing the token cancels the listener and releases what it captured")
  func releasingTokenCancels() {
    let store = Store<CounterState, Void>()
    var calls = 0
    weak var weakCaptured: Tracked?
    do {
      let captured = Tracked()
      weakCaptured = captured
      let token = store.addListener { _, _ in
        _ = captured
        calls += 1
      }
      store.dispatch(Increment())
      _ = token
    }
    store.dispatch(Increment())
    #expect(calls == 1)
    #expect(weakCaptured == nil, "the store must not keep a cancelled listener's closure")
    #expect(store._listeners.isEmpty)
    #expect(!store._hasObservers)
  }

  @Test("releasing tokens of every kind releases their closures")
  func releasingEveryKind() {
    let store = Store<ListState, Void>(initialState: ListState(todos: makeTodos(3)))
    weak var weakCaptured: Tracked?
    do {
      let captured = Tracked()
      weakCaptured = captured
      let tokens = [
        store.subscribe(to: \.filter) { _ in _ = captured },
        store.subscribe(to: \.todos, id: 1) { _ in _ = captured },
        store.observeUpdates { _ in _ = captured },
      ]
      store.dispatch(Toggle(id: 1))
      _ = tokens
    }
    #expect(weakCaptured == nil)
    store.dispatch(Toggle(id: 2))  // The next update sweeps the emptied entries.
    #expect(store._selectionOrder.isEmpty && store._elementOrder.isEmpty)
    #expect(store._rootEngine._updateObservers.isEmpty)
  }

  /// How a subscriber of each kind subscribes, for the test below.
  enum SubscriberKind: CaseIterable, Sendable {
    case updateObserver, listener, viewModel, keyPath
  }

  @Test(
    "an update observer, listener or subscriber that holds its own token is released with the store",
    arguments: SubscriberKind.allCases)
  func subscriberHoldingItsOwnToken(kind: SubscriberKind) {
    /// Where the subscriber keeps its token: a cycle through the token, which holds the slot.
    final class TokenHolder {
      var token: Subscription?
    }
    weak var weakStore: Store<CounterState, Void>?
    weak var weakCaptured: Tracked?
    weak var weakHolder: TokenHolder?
    var calls = 0
    do {
      let captured = Tracked()
      weakCaptured = captured
      let holder = TokenHolder()
      weakHolder = holder
      let store = Store<CounterState, Void>()
      weakStore = store
      let callback = {
        _ = captured
        _ = holder
        calls += 1
      }
      switch kind {
      case .updateObserver: holder.token = store.observeUpdates { _ in callback() }
      case .listener: holder.token = store.addListener { _, _ in callback() }
      case .viewModel: holder.token = store.subscribe(ParityModel.self) { _ in callback() }
      case .keyPath: holder.token = store.subscribe(to: \.value) { _ in callback() }
      }
      store.dispatch(Increment())
    }
    #expect(calls >= 1)
    #expect(weakStore == nil)
    #expect(weakHolder == nil, "the callback and its token must go with the store")
    #expect(weakCaptured == nil)
  }

  @Test("cancel() from another thread stops delivery and the entry is swept")
  func cancelFromBackground() async {
    let store = Store<CounterState, Void>()
    var calls = 0
    let token = store.addListener { _, _ in calls += 1 }
    await Task.detached { token.cancel() }.value
    store.dispatch(Increment())
    #expect(calls == 0)
    #expect(store._listeners.isEmpty)
    #expect(!store._hasObservers)
  }

  @Test("releasing the store releases everything it holds; tokens outliving it are harmless")
  func releasingStore() {
    weak var weakStore: Store<ListState, Void>?
    weak var weakCaptured: Tracked?
    var tokens: [Subscription] = []
    do {
      let captured = Tracked()
      weakCaptured = captured
      let interceptor = StoreInterceptor<ListState> { dispatchable, _, next in
        _ = captured
        next(dispatchable)
      }
      let store = Store<ListState, Void>(
        initialState: ListState(todos: makeTodos(2)), interceptors: [interceptor])
      weakStore = store
      tokens.append(store.addListener { _, _ in _ = captured })
      tokens.append(store.subscribe(to: \.todos, id: 0) { _ in _ = captured })
      tokens.append(store.subscribe(to: \.filter) { _ in _ = captured })
      tokens.append(store.observeUpdates { _ in _ = captured })
      store.dispatch(Toggle(id: 0))
    }
    #expect(weakStore == nil)
    #expect(weakCaptured == nil)
    for token in tokens { token.cancel() }
    #expect(tokens.allSatisfy { $0.isCancelled })
  }
}
