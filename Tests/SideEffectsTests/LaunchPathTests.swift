import SideEffects
import Testing

/// The launch path: what a launched effect's handle, cause and bookkeeping promise, now that a
/// handle is awaited on the caller's executor and an effect ending with a dispatch leaves the
/// registry without another hop.
@MainActor
@Suite("Launched effects", .timeLimit(.minutes(5)))
struct LaunchPathTests {
  @Test("every awaiter of a handle is resumed once, with the effect's value")
  func everyAwaiterResumedOnce() async throws {
    let store = makeStore()
    let handle = store.launch(IncrementAndRead())
    let awaiters = (0..<8).map { _ in Task { try await handle.value } }
    var values: [Int] = []
    for awaiter in awaiters { values.append(try await awaiter.value) }
    #expect(values == Array(repeating: 1, count: 8))
    #expect(try await handle.value == 1)
    #expect(store.state.value == 1)
  }

  @Test("many launched effects each apply once, and none is still counted as running after")
  func manyLaunchedEffects() async throws {
    let store = makeStore()
    let handles = (0..<500).map { _ in store.launch(IncrementAndRead()) }
    var values: [Int] = []
    for handle in handles { values.append(try await handle.value) }
    #expect(store.state.value == 500)
    // Each effect read the counter after its own increment: never before any increment.
    #expect(values.count == 500)
    #expect(values.allSatisfy { (1...500).contains($0) })
    #expect(store.runningEffectCount == 0)
  }

  @Test("an effect whose body ends with a dispatch still runs off the main actor")
  func bodyRunsOffMainActor() async throws {
    let store = makeStore()
    try await store.launch(ReportThread()).value
    try await store.dispatch(ReportThread())
    #expect(store.dependencies.service.recorded == ["background", "background"])
  }

  @Test("the cause of a nested effect's updaters names both effects, every time")
  func nestedCauseNamedEveryTime() async throws {
    let store = makeStore()
    var causes: [String] = []
    let token = store.observeUpdates { update in
      if let cause = update.cause { causes.append(cause.name) }
    }
    for _ in 0..<2 { try await store.dispatch(NestIncrement()) }
    #expect(causes == ["NestIncrement › IncrementAndRead", "NestIncrement › IncrementAndRead"])
    token.cancel()
  }
}

/// Runs ``IncrementAndRead`` as a nested effect.
struct NestIncrement: SideEffect {
  func sideEffect(_ context: SideEffectContext<Counter, Dependencies>) async throws {
    try await context.dispatch(IncrementAndRead())
  }
}

@MainActor
@Suite("A store handle launches effects of both kinds")
struct HandleLaunchTests {
  @Test("a handle launches a returning effect and hands back its value; nil once released")
  func launchesAReturningEffect() async throws {
    let store = makeStore()
    let task = store.handle.launch(IncrementAndRead())
    #expect(try await task?.value == 1)
    #expect(store.state.value == 1)
    let released = makeStore().handle
    #expect(released.launch(IncrementAndRead()) == nil)
  }
}
