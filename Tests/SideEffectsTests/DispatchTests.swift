import Foundation
import SideEffects
import Testing

@MainActor
@Suite("Dispatching side effects", .timeLimit(.minutes(5)))
struct DispatchTests {
  @Test("an awaited effect has applied its updaters, in order, when dispatch returns")
  func awaitedEffectAppliesUpdatersInOrder() async throws {
    let store = makeStore()
    try await store.dispatch(AppendSeveral(tag: "a", count: 5))
    #expect(store.state.log == ["a0", "a1", "a2", "a3", "a4"])
  }

  @Test("a returning effect hands its value back")
  func returningEffectReturnsValue() async throws {
    let store = makeStore()
    let first = try await store.dispatch(IncrementAndRead())
    let second = try await store.dispatch(IncrementAndRead())
    #expect(first == 1)
    #expect(second == 2)
  }

  @Test("the context's state includes every updater the effect has already dispatched")
  func stateIsFresh() async throws {
    struct ReadBack: ReturningSideEffect {
      func sideEffect(_ context: SideEffectContext<Counter, Dependencies>) async throws
        -> [String]
      {
        var seen: [String] = []
        for index in 0..<3 {
          await context.dispatch(Append(entry: "\(index)"))
          seen.append((await context.state.log).joined())
        }
        return seen
      }
    }
    let store = makeStore()
    #expect(try await store.dispatch(ReadBack()) == ["0", "01", "012"])
  }

  @Test("effect bodies run off the main thread")
  func bodiesRunOffTheMainThread() async throws {
    let store = makeStore()
    try await store.dispatch(ReportThread())
    await store.launch(ReportThread()).finish()
    #expect(store.dependencies.service.recorded == ["background", "background"])
  }

  @Test("every effect of a store gets the same dependencies")
  func sameDependencies() async throws {
    struct Identify: ReturningSideEffect {
      func sideEffect(_ context: SideEffectContext<Counter, Dependencies>) async throws
        -> ObjectIdentifier
      {
        ObjectIdentifier(context.dependencies.service)
      }
    }
    let store = makeStore()
    let first = try await store.dispatch(Identify())
    let second = try await store.launch(Identify()).value
    #expect(first == second)
    #expect(first == ObjectIdentifier(store.dependencies.service))
  }

  @Test("an effect can dispatch and await another effect")
  func nestedEffects() async throws {
    struct Outer: ReturningSideEffect {
      func sideEffect(_ context: SideEffectContext<Counter, Dependencies>) async throws -> Int {
        try await context.dispatch(AppendSeveral(tag: "n", count: 2))
        return try await context.dispatch(IncrementAndRead())
      }
    }
    let store = makeStore()
    #expect(try await store.dispatch(Outer()) == 1)
    #expect(store.state.log == ["n0", "n1"])
  }

  @Test("updaters carry their effect as cause, nested effects as Outer › Inner")
  func updatersCarryTheirCause() async throws {
    struct Outer: SideEffect {
      func sideEffect(_ context: SideEffectContext<Counter, Dependencies>) async throws {
        await context.dispatch(Increment())
        try await context.dispatch(AppendSeveral(tag: "x", count: 1))
      }
    }
    let store = makeStore()
    var causes: [String?] = []
    let token = store.observeUpdates { causes.append($0.cause?.name) }
    store.dispatch(Increment())
    try await store.dispatch(Outer())
    #expect(causes == [nil, "Outer", "Outer › AppendSeveral"])
    token.cancel()
  }

  @Test("the context exposes its store to extension modules")
  func contextExposesStore() async throws {
    struct StoreIdentity: ReturningSideEffect {
      func sideEffect(_ context: SideEffectContext<Counter, Dependencies>) async throws
        -> ObjectIdentifier
      {
        ObjectIdentifier(context._store)
      }
    }
    let store = makeStore()
    #expect(try await store.dispatch(StoreIdentity()) == ObjectIdentifier(store))
  }

  @Test("an effect dispatched untyped starts without being awaited")
  func untypedDispatchStartsEffect() async throws {
    let store = makeStore()
    let finished = AsyncStream<Void>.makeStream()
    let token = store.addListener { _, new in
      if new.log.count == 2 { finished.continuation.yield() }
    }
    let item: any Dispatchable = AppendSeveral(tag: "u", count: 2)
    store.dispatch(any: item)
    var iterator = finished.stream.makeAsyncIterator()
    await iterator.next()
    #expect(store.state.log == ["u0", "u1"])
    token.cancel()
  }

  @Test("an effect reaching a store of another state reports a clear error")
  func mismatchedStoreReportsError() async throws {
    struct Other: State {}
    let store = Store<Other, Void>(initialState: Other())
    var reported: [String] = []
    store.onUnhandledError = { error, _ in reported.append("\(error)") }
    let item: any Dispatchable = Failing(message: "never runs")
    store.dispatch(any: item)
    #expect(reported.count == 1)
    #expect(reported.first?.contains("Failing cannot run on a") == true)
    #expect(reported.first?.contains("Store<") == true)
  }
}

@MainActor
@Suite("Dispatching an effect from synchronous code", .timeLimit(.minutes(5)))
struct SynchronousDispatchTests {
  /// A UI event handler: synchronous, so it starts the effect without awaiting it.
  func onButtonTap(_ store: Store<Counter, Dependencies>) {
    store.launch(AppendSeveral(tag: "tap", count: 1))
  }

  @Test("launch from synchronous code starts the effect fire-and-forget")
  func synchronousDispatchStartsEffect() async {
    let store = makeStore()
    let done = AsyncStream<Void>.makeStream()
    let token = store.addListener { _, _ in done.continuation.yield() }
    onButtonTap(store)
    var iterator = done.stream.makeAsyncIterator()
    await iterator.next()
    #expect(store.state.log == ["tap0"])
    token.cancel()
  }
}
