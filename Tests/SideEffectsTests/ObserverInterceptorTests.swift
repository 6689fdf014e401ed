import Foundation
import SideEffects
import Synchronization
import Testing

struct Started: OnStartObserverDispatchable, StateUpdater {
  init?() {}
  func updateState(_ state: inout Counter) { state.log.append("started") }
}

struct NeverOnStart: OnStartObserverDispatchable, StateUpdater {
  init?() { nil }
  func updateState(_ state: inout Counter) { state.log.append("never") }
}

/// Logs each time the value reaches a multiple of three.
struct ReachedMultipleOfThree: StateObserverDispatchable, StateUpdater {
  let value: Int
  init?(prevState: Counter, currentState: Counter) {
    guard currentState.value % 3 == 0 else { return nil }
    value = currentState.value
  }
  func updateState(_ state: inout Counter) { state.log.append("reached \(value)") }
}

/// Logs every Increment with the value before and after it.
struct SawIncrement: DispatchObserverDispatchable, StateUpdater {
  let entry: String
  init?(dispatchedItem: any Dispatchable, prevState: Counter, currentState: Counter) {
    guard dispatchedItem is Increment else { return nil }
    entry = "increment \(prevState.value)→\(currentState.value)"
  }
  func updateState(_ state: inout Counter) { state.log.append(entry) }
}

/// Starts an effect in response to a dispatch.
struct AfterGateEffect: DispatchObserverDispatchable {
  let effect: AppendSeveral
  init?(dispatchedItem: any Dispatchable, prevState: Counter, currentState: Counter) {
    effect = AppendSeveral(tag: "after", count: 1)
  }
}

extension Notification.Name {
  static let observerTest = Notification.Name("SideEffectsTests.observerTest")
  static let observerThreadTest = Notification.Name("SideEffectsTests.observerThreadTest")
}

/// Logs the notification's `entry` user-info value; skips notifications without one.
struct NotificationEntry: NotificationObserverDispatchable, StateUpdater {
  let entry: String
  init?(notification: Notification) {
    guard let entry = notification.userInfo?["entry"] as? String else { return nil }
    self.entry = entry
  }
  func updateState(_ state: inout Counter) { state.log.append(entry) }
}

/// How many times `CountedEntry` has been built from a notification.
let countedEntryBuilds = Atomic<Int>(0)

/// Counts every time a notification builds it; never dispatches.
struct CountedEntry: NotificationObserverDispatchable {
  init?(notification: Notification) {
    countedEntryBuilds.add(1, ordering: .relaxed)
    return nil
  }
}

/// Runs a side effect when notified, to show items may be effects too.
struct NotifiedEffect: NotificationObserverDispatchable, SideEffect {
  init?(notification: Notification) {
    guard notification.userInfo?["effect"] != nil else { return nil }
  }
  func sideEffect(_ context: SideEffectContext<Counter, Dependencies>) async throws {
    await context.dispatch(Append(entry: "from effect"))
  }
}

@MainActor
@Suite("ObserverInterceptor", .serialized, .timeLimit(.minutes(5)))
struct ObserverInterceptorTests {
  @Test("onStart dispatches its items before the store's initializer returns, skipping nils")
  func onStart() {
    let observer = ObserverInterceptor<Counter>.observe([
      .onStart([Started.self, NeverOnStart.self])
    ])
    let store = makeStore(interceptors: [observer])
    #expect(store.state.log == ["started"])
  }

  @Test("whenStateChanged dispatches when the predicate over (old, new) holds")
  func whenStateChanged() {
    let observer = ObserverInterceptor<Counter>.observe([
      .whenStateChanged({ old, new in old.value != new.value }, [ReachedMultipleOfThree.self])
    ])
    let store = makeStore(interceptors: [observer])
    for _ in 0..<7 { store.dispatch(Increment()) }
    store.dispatch(Append(entry: "no value change"))
    #expect(store.state.log == ["reached 3", "reached 6", "no value change"])
  }

  @Test("whenDispatched dispatches after each dispatch of exactly the watched type")
  func whenDispatched() async throws {
    let observer = ObserverInterceptor<Counter>.observe([
      .whenDispatched(Increment.self, [SawIncrement.self]),
      .whenDispatched(WaitAtGate.self, [AfterGateEffect.self]),
    ])
    let store = makeStore(interceptors: [observer])
    store.dispatch(Increment())
    store.dispatch(Append(entry: "other"))
    store.dispatch(Increment())
    #expect(store.state.log == ["increment 0→1", "other", "increment 1→2"])
  }

  @Test("whenDispatched can start an effect in response to one")
  func whenDispatchedStartsEffect() async throws {
    struct StartFollowUp: DispatchObserverDispatchable, SideEffect {
      init?(dispatchedItem: any Dispatchable, prevState: Counter, currentState: Counter) {}
      func sideEffect(_ context: SideEffectContext<Counter, Dependencies>) async throws {
        await context.dispatch(Append(entry: "follow-up"))
      }
    }
    let observer = ObserverInterceptor<Counter>.observe([
      .whenDispatched(IncrementAndRead.self, [StartFollowUp.self])
    ])
    let store = makeStore(interceptors: [observer])
    let done = AsyncStream<Void>.makeStream()
    let token = store.addListener { _, new in
      if new.log == ["follow-up"] { done.continuation.yield() }
    }
    #expect(try await store.dispatch(IncrementAndRead()) == 1)
    var iterator = done.stream.makeAsyncIterator()
    await iterator.next()
    #expect(store.state.log == ["follow-up"])
    token.cancel()
  }

  @Test("onNotification dispatches what each notification builds, in order, skipping nils")
  func onNotification() async {
    let observer = ObserverInterceptor<Counter>.observe([
      .onNotification(.observerTest, [NotificationEntry.self, NotifiedEffect.self])
    ])
    let store = makeStore(interceptors: [observer])
    let done = AsyncStream<Void>.makeStream()
    let token = store.addListener { _, new in
      if new.log.last == "from effect" { done.continuation.yield() }
    }
    NotificationCenter.default.post(name: .observerTest, object: nil, userInfo: ["entry": "one"])
    NotificationCenter.default.post(name: .observerTest, object: nil, userInfo: ["other": 1])
    NotificationCenter.default.post(name: .observerTest, object: nil, userInfo: ["entry": "two"])
    NotificationCenter.default.post(name: .observerTest, object: nil, userInfo: ["effect": 1])
    var iterator = done.stream.makeAsyncIterator()
    await iterator.next()
    #expect(store.state.log == ["one", "two", "from effect"])
    token.cancel()
  }

  @Test("a notification posted off the main thread is dispatched on the main actor")
  func notificationFromBackground() async {
    let observer = ObserverInterceptor<Counter>.observe([
      .onNotification(.observerThreadTest, [NotificationEntry.self])
    ])
    let store = makeStore(interceptors: [observer])
    let done = AsyncStream<Void>.makeStream()
    let token = store.addListener { _, _ in done.continuation.yield() }
    await Task.detached {
      NotificationCenter.default.post(
        name: .observerThreadTest, object: nil, userInfo: ["entry": "background"])
    }.value
    var iterator = done.stream.makeAsyncIterator()
    await iterator.next()
    #expect(store.state.log == ["background"])
    token.cancel()
  }

  @Test("notification observers go away with the store and its interceptor")
  func notificationObserversAreRemoved() async {
    weak var weakStore: Store<Counter, Dependencies>?
    do {
      let store = makeStore(interceptors: [
        ObserverInterceptor<Counter>.observe([
          .onNotification(.observerTest, [NotificationEntry.self, CountedEntry.self])
        ])
      ])
      weakStore = store
      let done = AsyncStream<Void>.makeStream()
      let token = store.addListener { _, _ in done.continuation.yield() }
      NotificationCenter.default.post(name: .observerTest, object: nil, userInfo: ["entry": "x"])
      var iterator = done.stream.makeAsyncIterator()
      await iterator.next()
      #expect(store.state.log == ["x"])
      token.cancel()
    }
    #expect(weakStore == nil)
    let builds = countedEntryBuilds.load(ordering: .relaxed)
    #expect(builds == 1)
    // The observer was removed: posting again builds nothing.
    NotificationCenter.default.post(name: .observerTest, object: nil, userInfo: ["entry": "y"])
    #expect(countedEntryBuilds.load(ordering: .relaxed) == builds)
  }
}

/// How many times `SharedInterceptorEntry` has been built from a notification.
let sharedInterceptorBuilds = Atomic<Int>(0)

/// Counts every time a notification builds it; never dispatches.
struct SharedInterceptorEntry: NotificationObserverDispatchable {
  init?(notification: Notification) {
    sharedInterceptorBuilds.add(1, ordering: .relaxed)
    return nil
  }
}

extension Notification.Name {
  static let sharedInterceptorTest = Notification.Name("SideEffectsTests.sharedInterceptorTest")
}

/// One interceptor value kept for the whole process, as a `static let` would be.
@MainActor let sharedObserverInterceptor = ObserverInterceptor<Counter>.observe([
  .onNotification(.sharedInterceptorTest, [SharedInterceptorEntry.self])
])

@MainActor
@Suite("ObserverInterceptor: observers are owned per store", .serialized)
struct ObserverInterceptorOwnershipTests {
  /// Katana's `testObserveOnNotification_whenStoreIsDeallocated_unregistersObserver`, with the
  /// interceptor value outliving the stores.
  @Test("a kept interceptor leaves no observer behind when its stores are released")
  func keptInterceptorUnregistersWithStore() {
    weak var weakFirst: Store<Counter, Dependencies>?
    weak var weakSecond: Store<Counter, Dependencies>?
    let before = sharedInterceptorBuilds.load(ordering: .relaxed)
    do {
      let first = makeStore(interceptors: [sharedObserverInterceptor])
      let second = makeStore(interceptors: [sharedObserverInterceptor])
      weakFirst = first
      weakSecond = second
      NotificationCenter.default.post(name: .sharedInterceptorTest, object: nil)
      // One observer per live store, each building once per notification.
      #expect(sharedInterceptorBuilds.load(ordering: .relaxed) == before + 2)
      _ = (first, second)
    }
    #expect(weakFirst == nil && weakSecond == nil)
    let afterRelease = sharedInterceptorBuilds.load(ordering: .relaxed)
    NotificationCenter.default.post(name: .sharedInterceptorTest, object: nil)
    #expect(
      sharedInterceptorBuilds.load(ordering: .relaxed) == afterRelease,
      "no observer may survive the store that registered it")
  }

  @Test("releasing one store removes only its own observer")
  func releasingOneStoreKeepsTheOthers() {
    let kept = makeStore(interceptors: [sharedObserverInterceptor])
    do {
      let released = makeStore(interceptors: [sharedObserverInterceptor])
      _ = released
    }
    let before = sharedInterceptorBuilds.load(ordering: .relaxed)
    NotificationCenter.default.post(name: .sharedInterceptorTest, object: nil)
    #expect(sharedInterceptorBuilds.load(ordering: .relaxed) == before + 1)
    _ = kept
  }
}
