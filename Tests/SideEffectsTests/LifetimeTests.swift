import SideEffects
import Testing

/// An object whose release the tests watch.
final class Tracked: Sendable {}

/// Holds a context, so that a leaked context would keep this object (and its store) alive.
final class ContextHolder: @unchecked Sendable {
  // Written once by the effect before anything else reads it; only the test's weak reference
  // looks at the holder afterwards, and never at this property.
  var context: SideEffectContext<Counter, Dependencies>?
}

struct HoldingEffect: SideEffect {
  let tracked: Tracked
  let holder: ContextHolder
  func sideEffect(_ context: SideEffectContext<Counter, Dependencies>) async throws {
    holder.context = context
    await context.dispatch(Increment())
  }
}

@MainActor
@Suite("Effects and their contexts are released", .timeLimit(.minutes(5)))
struct LifetimeTests {
  @Test("an awaited effect, its context and its store are released once it has finished")
  func awaitedEffectIsReleased() async throws {
    weak var weakTracked: Tracked?
    weak var weakHolder: ContextHolder?
    weak var weakStore: Store<Counter, Dependencies>?
    do {
      let store = makeStore()
      weakStore = store
      let tracked = Tracked()
      let holder = ContextHolder()
      weakTracked = tracked
      weakHolder = holder
      try await store.dispatch(HoldingEffect(tracked: tracked, holder: holder))
      #expect(store.state.value == 1)
    }
    #expect(weakTracked == nil)
    #expect(weakHolder == nil)
    #expect(weakStore == nil)
  }

  @Test("a launched effect is released once it has finished, even while its handle lives")
  func launchedEffectIsReleased() async throws {
    weak var weakTracked: Tracked?
    weak var weakStore: Store<Counter, Dependencies>?
    var handle: EffectTask<Void>?
    do {
      let store = makeStore()
      weakStore = store
      let tracked = Tracked()
      weakTracked = tracked
      handle = store.launch(HoldingEffect(tracked: tracked, holder: ContextHolder()))
      try await handle?.value
    }
    #expect(weakTracked == nil)
    #expect(weakStore == nil)
    #expect(handle != nil)
  }

  @Test("a running effect keeps its store alive until it finishes")
  func runningEffectKeepsStore() async throws {
    weak var weakStore: Store<Counter, Dependencies>?
    let gate: Gate
    let handle: EffectTask<Void>
    do {
      let store = makeStore()
      weakStore = store
      gate = store.dependencies.gate
      handle = store.launch(WaitAtGate(name: "k"))
    }
    await gate.arrivals(1)
    #expect(weakStore != nil)
    gate.open()
    try await handle.value
    #expect(weakStore == nil)
  }
}
