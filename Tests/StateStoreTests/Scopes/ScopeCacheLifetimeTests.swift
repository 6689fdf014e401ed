import Dispatch
import StateStore
import Synchronization
import Testing

// A store remembers the scopes made from it without keeping them alive (`_WeakScope`, a weak
// reference): a scope whose last reference is gone is never handed out again, and a new one is
// made in its place. These tests ask for a scope at the moments when it is being destroyed.

@MainActor
@Suite("Scoped stores: the scope cache and scopes being released")
struct ScopeCacheLifetimeTests {
  @Test(
    "a scope whose last reference goes on another thread is not handed out while its deinitializer waits for the main actor"
  )
  func releasedOffTheMainActor() async throws {
    let app = Store<ShellState, Void>(initialState: Self.shell(rows: 2))
    let (signals, signal) = AsyncStream.makeStream(of: Void.self)
    let old = try #require(Self.releaseOffMainAndAskAgain(app, signal: signal))
    // The old scope's deinitializer was pending on the main actor while it was asked for: the
    // cache gave a new scope, not the one being destroyed.
    #expect(ObjectIdentifier(old.fresh) != old.released)
    // The pending deinitializer runs now; the new scope stays the one filed.
    var iterator = signals.makeAsyncIterator()
    await iterator.next()
    #expect(app.scope(state: \.rows, id: 1) === old.fresh)
    var heard: [Bool] = []
    let token = old.fresh.subscribe(to: \.done) { heard.append($0) }
    old.fresh.dispatch(ToggleRow())
    #expect(heard == [false, true])
    #expect(app.state.rows[0].done)
    token.cancel()
  }

  @Test(
    "a scope whose release asks for the same scope, subscribes to it and dispatches through it gets a new, working scope"
  )
  func releaseAsksForItself() {
    let app = Store<ShellState, Void>(initialState: Self.shell(rows: 2))
    let log = CacheLog()
    do {
      let row = app.scope(state: \.rows, id: 1)
      let firstID = ObjectIdentifier(row)
      let canary = Canary {
        MainActor.assumeIsolated {
          // Inside the scope's destruction, on the main actor.
          let again = app.scope(state: \.rows, id: 1)
          log.heard.append(ObjectIdentifier(again) == firstID ? "same" : "new")
          log.tokens.append(again.subscribe(to: \.done) { log.heard.append("done \($0)") })
          again.dispatch(ToggleRow())
        }
      }
      row.onUnhandledError = { _, _ in withExtendedLifetime(canary) {} }
    }
    #expect(log.heard == ["new", "done false", "done true"])
    let later = app.scope(state: \.rows, id: 1)
    later.dispatch(ToggleRow())
    #expect(log.heard.last == "done false")
    #expect(app.state.rows[0].done == false)
    #expect(log.tokens.count == 1)
  }

  @Test("a scope asked for again while it is alive is the same store, and a new one once it went")
  func sameWhileAlive() {
    let app = Store<ShellState, Void>(initialState: Self.shell(rows: 2))
    var first: Store<Row, Void>? = app.scope(state: \.rows, id: 2)
    #expect(app.scope(state: \.rows, id: 2) === first)
    first = nil
    let second = app.scope(state: \.rows, id: 2)
    #expect(app.scope(state: \.rows, id: 2) === second)
    second.dispatch(ToggleRow())
    #expect(app.state.rows[1].done)
  }

  @Test(
    "a released scope is freed, not kept by the cache, and asked for again is a new, working one")
  func releasedIsFreed() {
    let app = Store<ShellState, Void>(initialState: Self.shell(rows: 2))
    weak var old: Store<Row, Void>?
    do {
      let row = app.scope(state: \.rows, id: 2)
      old = row
      row.dispatch(ToggleRow())
    }
    #expect(old == nil)
    let again = app.scope(state: \.rows, id: 2)
    var heard: [Bool] = []
    let token = again.subscribe(to: \.done) { heard.append($0) }
    again.dispatch(ToggleRow())
    #expect(heard == [true, false])
    #expect(app.scope(state: \.rows, id: 2) === again)
    token.cancel()
  }

  @Test(
    "a scope of a scope whose release asks its parent for it again gets a new, working scope"
  )
  func nestedReleaseAsksForItself() {
    let app = Store<ShellState, Void>(initialState: Self.shell(rows: 2))
    let profile = app.scope(state: \.profile)
    let log = CacheLog()
    do {
      let avatar = profile.scope(state: \.avatar)
      let firstID = ObjectIdentifier(avatar)
      let canary = Canary {
        MainActor.assumeIsolated {
          // Inside the scope's destruction, on the main actor.
          let again = profile.scope(state: \.avatar)
          log.heard.append(ObjectIdentifier(again) == firstID ? "same" : "new")
          log.tokens.append(again.subscribe(to: \.url) { log.heard.append("url \($0)") })
          again.dispatch(SetAvatar(url: "u"))
        }
      }
      avatar.onUnhandledError = { _, _ in withExtendedLifetime(canary) {} }
    }
    #expect(log.heard == ["new", "url ", "url u"])
    #expect(app.state.profile.avatar.url == "u")
  }

  static func shell(rows: Int) -> ShellState {
    var state = ShellState()
    state.rows = TrackedArray((1...rows).map { Row(id: $0) })
    return state
  }

  /// Releases `app`'s scope of row 1 on another thread, then asks for it again at once.
  ///
  /// The main actor waits while the other thread drops the only reference, so the scope's
  /// deinitializer is still pending when the scope is asked for. `signal` hears the old
  /// scope's captures go.
  static func releaseOffMainAndAskAgain(
    _ app: Store<ShellState, Void>, signal: AsyncStream<Void>.Continuation
  ) -> (released: ObjectIdentifier, fresh: Store<Row, Void>)? {
    let slot = ScopeSlot()
    let row = app.scope(state: \.rows, id: 1)
    let released = ObjectIdentifier(row)
    let canary = Canary { signal.yield() }
    row.onUnhandledError = { _, _ in withExtendedLifetime(canary) {} }
    slot.store.withLock { $0 = row }
    _ = consume row
    let done = DispatchSemaphore(value: 0)
    DispatchQueue.global().async {
      slot.store.withLock { $0 = nil }
      done.signal()
    }
    // The main actor is held: the scope's isolated deinitializer is enqueued, not run.
    done.wait()
    return (released, app.scope(state: \.rows, id: 1))
  }
}

/// What a hostile deinitializer heard, and the tokens it made.
@MainActor
final class CacheLog {
  var heard: [String] = []
  var tokens: [Subscription] = []
}

/// Hands a scope to another thread.
final class ScopeSlot: Sendable {
  let store = Mutex<Store<Row, Void>?>(nil)
}

/// Runs inside `CacheHookedID.==`, which the scope cache's look-up calls.
@MainActor private var cacheEqualityHook: (@MainActor () -> Void)?

/// Runs inside `CacheHookedID.hash(into:)`, with the hashed value.
@MainActor private var cacheHashHook: (@MainActor (Int) -> Void)?

/// An id whose `==` runs `cacheEqualityHook` and whose `hash(into:)` runs `cacheHashHook`.
private struct CacheHookedID: Hashable, Sendable {
  let value: Int

  static func == (lhs: Self, rhs: Self) -> Bool {
    MainActor.assumeIsolated { cacheEqualityHook?() }
    return lhs.value == rhs.value
  }

  func hash(into hasher: inout Hasher) {
    MainActor.assumeIsolated { cacheHashHook?(value) }
    hasher.combine(value)
  }
}

private struct HookedItem: State, Identifiable, Equatable {
  var id = CacheHookedID(value: -1)
  var done = false
}

private struct HookedList: State, Equatable {
  var items = TrackedArray<HookedItem>()
}

private struct ToggleHookedItem: StateUpdater {
  func updateState(_ state: inout HookedItem) { state.done.toggle() }
}

@MainActor
@Suite("Scoped stores: the scope cache and the application's ==", .serialized)
struct ScopeCacheHostileIDTests {
  init() {
    cacheEqualityHook = nil
    cacheHashHook = nil
  }

  @Test(
    "an id whose == asks for another element scope and releases the scope being looked up: the look-up finishes and gives a working scope"
  )
  func equalityAsksForScopes() {
    var state = HookedList()
    state.items = TrackedArray((0..<3).map { HookedItem(id: CacheHookedID(value: $0)) })
    let app = Store<HookedList, Void>(initialState: state)
    var first: Store<HookedItem, Void>? = app.scope(state: \.items, id: CacheHookedID(value: 1))
    var made: [Store<HookedItem, Void>] = []
    cacheEqualityHook = {
      cacheEqualityHook = nil
      made.append(app.scope(state: \.items, id: CacheHookedID(value: 2)))
      first = nil
    }
    let again = app.scope(state: \.items, id: CacheHookedID(value: 1))
    again.dispatch(ToggleHookedItem())
    made.first?.dispatch(ToggleHookedItem())
    #expect(app.state.items.map(\.done) == [false, true, true])
    #expect(made.count == 1)
    #expect(first == nil)
  }

  @Test(
    "an id whose hash asks for another element scope while its own scope is filed: both scopes are kept, one each"
  )
  func hashAsksForScopes() {
    var state = HookedList()
    state.items = TrackedArray((0..<3).map { HookedItem(id: CacheHookedID(value: $0)) })
    let app = Store<HookedList, Void>(initialState: state)
    var made: [Store<HookedItem, Void>] = []
    var hashesOfOne = 0
    cacheHashHook = { value in
      guard value == 1 else { return }
      hashesOfOne += 1
      // Every hash of id 1 from the second on (its filing, after the look-up) asks for row 2.
      if hashesOfOne >= 2, made.count < 3 {
        made.append(app.scope(state: \.items, id: CacheHookedID(value: 2)))
      }
    }
    let one = app.scope(state: \.items, id: CacheHookedID(value: 1))
    cacheHashHook = nil
    #expect(!made.isEmpty)
    #expect(made.allSatisfy { $0 === made[0] })
    #expect(app.scope(state: \.items, id: CacheHookedID(value: 1)) === one)
    #expect(app.scope(state: \.items, id: CacheHookedID(value: 2)) === made.first)
    one.dispatch(ToggleHookedItem())
    made.first?.dispatch(ToggleHookedItem())
    #expect(app.state.items.map(\.done) == [false, true, true])
  }
}
