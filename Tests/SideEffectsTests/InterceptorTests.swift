import SideEffects
import Testing

/// Records the type of every dispatchable it sees, then drops, replaces or passes it on.
@MainActor
final class InterceptorProbe {
  var seen: [String] = []
  var transform: (any Dispatchable) -> (any Dispatchable)? = { $0 }

  var interceptor: StoreInterceptor<Counter> {
    StoreInterceptor { [self] dispatchable, _, next in
      seen.append("\(type(of: dispatchable))")
      if let forwarded = transform(dispatchable) { next(forwarded) }
    }
  }
}

@MainActor
@Suite("Effects and interceptors", .timeLimit(.minutes(5)))
struct InterceptorTests {
  @Test("interceptors see launched effects and updaters in dispatch order")
  func interceptorsSeeDispatchOrder() async throws {
    let probe = InterceptorProbe()
    let store = makeStore(interceptors: [probe.interceptor])
    let handle = store.launch(AppendSeveral(tag: "a", count: 1))
    store.dispatch(Increment())
    try await handle.value
    try await store.dispatch(IncrementAndRead())
    #expect(
      probe.seen == ["AppendSeveral", "Increment", "Append", "IncrementAndRead", "Increment"])
  }

  @Test("a dropped effect does not run: a plain dispatch returns, a returning one throws")
  func droppedEffect() async throws {
    let probe = InterceptorProbe()
    probe.transform = { $0 is any ReturningSideEffect ? nil : $0 }
    let store = makeStore(interceptors: [probe.interceptor])
    try await store.dispatch(AppendSeveral(tag: "d"))
    let reason = EffectNotRunError.Reason.droppedByInterceptor
    let expected = EffectNotRunError(
      effectType: String(reflecting: IncrementAndRead.self), reason: reason)
    await #expect(throws: expected) { try await store.dispatch(IncrementAndRead()) }
    await #expect(throws: expected) { try await store.launch(IncrementAndRead()).value }
    try await store.launch(AppendSeveral(tag: "d")).value
    #expect(store.state == Counter())
    #expect(String(describing: expected).contains("an interceptor dropped it"))
  }

  @Test("an effect replaced by another value of its type runs the replacement")
  func replacedBySameType() async throws {
    let probe = InterceptorProbe()
    probe.transform = { $0 is AppendSeveral ? AppendSeveral(tag: "z", count: 1) : $0 }
    let store = makeStore(interceptors: [probe.interceptor])
    try await store.dispatch(AppendSeveral(tag: "a", count: 2))
    #expect(store.state.log == ["z0"])
  }

  @Test("an effect replaced by an updater: the store applies it and the awaiter learns why")
  func replacedByUpdater() async throws {
    let probe = InterceptorProbe()
    probe.transform = { $0 is any ReturningSideEffect ? Increment() : $0 }
    let store = makeStore(interceptors: [probe.interceptor])
    try await store.dispatch(AppendSeveral(tag: "a"))
    #expect(store.state.value == 1)
    let expected = EffectNotRunError(
      effectType: String(reflecting: IncrementAndRead.self), reason: .droppedByInterceptor)
    await #expect(throws: expected) { try await store.dispatch(IncrementAndRead()) }
    #expect(store.state.value == 2)
  }

  @Test("an effect replaced by another effect: the replacement runs, a returning awaiter throws")
  func replacedByOtherEffect() async throws {
    let probe = InterceptorProbe()
    probe.transform = { $0 is IncrementAndRead ? AppendSeveral(tag: "r", count: 1) : $0 }
    let store = makeStore(interceptors: [probe.interceptor])
    let finished = AsyncStream<Void>.makeStream()
    let token = store.addListener { _, new in
      if !new.log.isEmpty { finished.continuation.yield() }
    }
    let reason = EffectNotRunError.Reason.replacedByInterceptor(
      with: String(reflecting: AppendSeveral.self))
    let expected = EffectNotRunError(
      effectType: String(reflecting: IncrementAndRead.self), reason: reason)
    await #expect(throws: expected) { try await store.dispatch(IncrementAndRead()) }
    var iterator = finished.stream.makeAsyncIterator()
    await iterator.next()
    #expect(store.state.log == ["r0"])
    #expect(store.state.value == 0)
    token.cancel()
  }
}
