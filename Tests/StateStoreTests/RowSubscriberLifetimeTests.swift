import Foundation
import Synchronization
import Testing

@testable import StateStore

#if canImport(Glibc)
  import Glibc
#endif

/// Which tokens a background thread has finished cancelling, and any call that came after.
final class ReleaseLog: Sendable {
  let calls = Atomic<Int>(0)
}

/// The invariants row subscribers rely on now that the store holds only their callbacks, in a
/// table the tokens release from any thread, and never the tokens themselves.
@MainActor
@Suite("Row subscribers: a released token's callback is gone at once, on any thread")
struct RowSubscriberLifetimeTests {
  @Test("releasing a row token frees its closure at once, before any sweep, and it is never called")
  func releaseFreesAtOnce() {
    let store = Store<ListState, Void>(initialState: ListState(todos: makeTodos(3)))
    weak var weakCaptured: Tracked?
    var calls = 0
    var token: Subscription?
    do {
      let captured = Tracked()
      weakCaptured = captured
      token = store.subscribe(to: \.todos, id: 1) { _ in
        _ = captured
        calls += 1
      }
    }
    #expect(calls == 1)
    #expect(weakCaptured != nil)
    token = nil
    #expect(weakCaptured == nil, "the closure is released with the token, not at the next sweep")
    store.dispatch(Toggle(id: 1))
    #expect(calls == 1)
    #expect(store._elementOrder.isEmpty, "the sweep dropped the emptied group")
    _ = token
  }

  @Test("a subscriber cancelling itself in its callback is called no more, and freed after it")
  func cancelInsideOwnCallback() {
    let store = Store<ListState, Void>(initialState: ListState(todos: makeTodos(3)))
    weak var weakCaptured: Tracked?
    var calls = 0
    var neighbourCalls = 0
    var token: Subscription?
    do {
      let captured = Tracked()
      weakCaptured = captured
      token = store.subscribe(to: \.todos, id: 1) { _ in
        _ = captured
        calls += 1
        if calls == 2 { token?.cancel() }
      }
    }
    let neighbour = store.subscribe(to: \.todos, id: 1) { _ in neighbourCalls += 1 }
    store.dispatch(Toggle(id: 1))
    #expect(calls == 2)
    #expect(neighbourCalls == 2, "the rest of the bucket is still told")
    #expect(weakCaptured == nil, "cancelled from inside, the closure is freed once it returns")
    store.dispatch(Toggle(id: 1))
    #expect(calls == 2)
    #expect(neighbourCalls == 3)
    _ = neighbour
  }

  @Test("a subscriber cancelled by an earlier one of its bucket is not called in that round")
  func cancelledByNeighbour() {
    let store = Store<ListState, Void>(initialState: ListState(todos: makeTodos(3)))
    var laterCalls = 0
    var later: Subscription?
    let earlier = store.subscribe(to: \.todos, id: 2) { todo in
      if todo?.done == true { later?.cancel() }
    }
    later = store.subscribe(to: \.todos, id: 2) { _ in laterCalls += 1 }
    store.dispatch(Toggle(id: 2))
    #expect(laterCalls == 1, "only its first value")
    #expect(later?.isCancelled == true)
    _ = earlier
  }

  @Test("cancelling twice, then releasing, does nothing more; the entry is swept once")
  func cancelTwice() {
    let store = Store<ListState, Void>(initialState: ListState(todos: makeTodos(3)))
    var calls = 0
    var token: Subscription? = store.subscribe(to: \.todos, id: 0) { _ in calls += 1 }
    let other = store.subscribe(to: \.todos, id: 0) { _ in calls += 10 }
    token?.cancel()
    token?.cancel()
    #expect(token?.isCancelled == true)
    token = nil
    store.dispatch(Toggle(id: 0))
    #expect(calls == 1 + 10 + 10)
    _ = other
  }

  @Test("indices freed by the sweep are reused without one subscriber hearing another's element")
  func reusedIndicesKeepTheirElement() {
    let store = Store<ListState, Void>(initialState: ListState(todos: makeTodos(10)))
    var heard: [Int: [Int]] = [:]
    var keep: [Subscription] = []
    var drop: [Subscription] = []
    for id in 0..<10 {
      let token = store.subscribe(to: \.todos, id: id) { todo in
        heard[-1, default: []].append(todo?.id ?? -1)
      }
      if id.isMultiple(of: 2) { drop.append(token) } else { keep.append(token) }
    }
    drop.removeAll()
    store.dispatch(Toggle(id: 1))  // Sweeps: the even ids' indices are free.
    heard = [:]
    for id in 0..<5 {
      keep.append(
        store.subscribe(to: \.todos, id: id * 2) { todo in
          heard[id * 2, default: []].append(todo?.id ?? -1)
        })
    }
    for id in 0..<10 { store.dispatch(Toggle(id: id)) }
    for id in 0..<5 {
      #expect(heard[id * 2] == [id * 2, id * 2], "first value, then its own toggle only")
    }
  }

  // A callback that the dispatch copied out of the table just before another thread released
  // its token may still run once (the store never holds a lock across a subscriber's call),
  // so the guarantee checked is the one a caller can rely on: once `cancel()` has returned and
  // the dispatching thread has seen it return, no later delivery calls it, and what it
  // captured is freed. The concurrent phase is there for ThreadSanitizer and for the table's
  // bookkeeping under contention.
  @Test("tokens released on another thread during dispatches are never called once released")
  func releaseOnAnotherThreadDuringDispatch() async {
    let store = Store<ListState, Void>(initialState: ListState(todos: makeTodos(100)))
    let log = ReleaseLog()
    weak var weakCaptured: Tracked?
    var tokens: [Subscription] = []
    do {
      let captured = Tracked()
      weakCaptured = captured
      for k in 0..<2_000 {
        tokens.append(
          store.subscribe(to: \.todos, id: k % 100) { _ in
            _ = captured
            _ = log.calls.add(1, ordering: .relaxed)
          })
      }
    }
    let releasing = Task.detached { [tokens] in
      for token in tokens { token.cancel() }
    }
    tokens.removeAll()
    for round in 0..<300 { store.dispatch(Toggle(id: round % 100)) }
    await releasing.value
    let callsWhileReleasing = log.calls.load(ordering: .relaxed)
    for id in 0..<100 { store.dispatch(Toggle(id: id)) }
    #expect(log.calls.load(ordering: .relaxed) == callsWhileReleasing)
    #expect(weakCaptured == nil)
    #expect(store._elementOrder.isEmpty)
  }

  @Test("a token released on another thread while its callback runs frees it after the call")
  func releaseOnAnotherThreadInsideCallback() {
    let store = Store<ListState, Void>(initialState: ListState(todos: makeTodos(3)))
    weak var weakCaptured: Tracked?
    var aliveDuringCall = false
    var calls = 0
    var token: Subscription?
    do {
      let captured = Tracked()
      weakCaptured = captured
      token = store.subscribe(to: \.todos, id: 1) { _ in
        calls += 1
        guard calls == 2, let held = token else { return }
        token = nil
        let done = DispatchSemaphore(value: 0)
        Thread { [held] in
          held.cancel()
          done.signal()
        }.start()
        done.wait()
        aliveDuringCall = weakCaptured != nil
        _ = captured
      }
    }
    store.dispatch(Toggle(id: 1))
    #expect(aliveDuringCall, "a running callback keeps what it captured until it returns")
    #expect(weakCaptured == nil)
    store.dispatch(Toggle(id: 1))
    #expect(calls == 2)
  }

  @Test("a token outliving its store is cancelled and released on another thread harmlessly")
  func tokenOutlivesStoreOnAnotherThread() async {
    weak var weakCaptured: Tracked?
    var token: Subscription?
    do {
      let captured = Tracked()
      weakCaptured = captured
      let store = Store<ListState, Void>(initialState: ListState(todos: makeTodos(2)))
      token = store.subscribe(to: \.todos, id: 0) { _ in _ = captured }
    }
    #expect(weakCaptured == nil, "the store took the callback with it")
    let held = token
    token = nil
    await Task.detached {
      held?.cancel()
      held?.cancel()
    }.value
    #expect(held?.isCancelled == true)
  }

  #if canImport(Glibc)
    @Test("a row subscriber's token takes one 48-byte block of the allocator's")
    func tokenStaysSmall() throws {
      typealias UsableSize = @convention(c) (UnsafeMutableRawPointer?) -> Int
      // `malloc.h` is not part of the Glibc module; the default namespace (a null handle) has it.
      let symbol = try #require(dlsym(nil, "malloc_usable_size"))
      let usableSize = unsafeBitCast(symbol, to: UsableSize.self)
      let store = Store<ListState, Void>(initialState: ListState(todos: makeTodos(1)))
      // glibc may hand a request a larger free block whole when what would be left over is too
      // small to keep (a 64-byte block for a 48-byte request), depending on what the rest of the
      // process freed before. The smallest block over many tokens is the one the size asks for.
      let tokens = (0..<64).map { _ in store.subscribe(to: \.todos, id: 0) { _ in } }
      let smallest = tokens.map { usableSize(Unmanaged.passUnretained($0).toOpaque()) }.min()
      // glibc's 48-byte blocks give 40 usable bytes; the next class, 64, gives 56.
      #expect(try #require(smallest) <= 40)
    }
  #endif
}
