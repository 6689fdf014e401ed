import SideEffects
import StateStoreTesting
import Testing

@MainActor
@Suite("Cancelling effects", .timeLimit(.minutes(5)))
struct CancellationTests {
  @Test("cancelling the awaiting task cancels the effect")
  func cancellingAwaiterCancelsEffect() async {
    let store = makeStore()
    let waiting = Task { try await store.dispatch(WaitAtGate(name: "w")) }
    await store.dependencies.gate.arrivals(1)
    waiting.cancel()
    let result = await waiting.result
    #expect(throws: CancellationError.self) { try result.get() }
    #expect(store.state.log == ["w start"])
  }

  @Test("cancelling a launched effect's handle cancels it, without reporting an error")
  func cancellingHandle() async {
    let store = makeStore()
    let hook = ErrorHook(store)
    let handle = store.launch(WaitAtGate(name: "h"))
    await store.dependencies.gate.arrivals(1)
    handle.cancel()
    #expect(handle.isCancelled)
    await #expect(throws: CancellationError.self) { try await handle.value }
    #expect(store.state.log == ["h start"])
    #expect(hook.errors.isEmpty)
  }

  @Test("a cancelled effect's later updaters are ignored")
  func cancelledEffectCannotDispatch() async {
    struct Stubborn: SideEffect {
      func sideEffect(_ context: SideEffectContext<Counter, Dependencies>) async throws {
        try? await context.dependencies.gate.wait()
        await context.dispatch(Append(entry: "late"))
        context.dependencies.service.record("finished")
      }
    }
    let store = makeStore()
    let handle = store.launch(Stubborn())
    await store.dependencies.gate.arrivals(1)
    handle.cancel()
    await handle.finish()
    #expect(store.dependencies.service.recorded == ["finished"])
    #expect(store.state.log.isEmpty)
  }

  @Test("a new effect with the same identifier cancels the one in flight")
  func sameIdentifierCancelsInFlight() async throws {
    let store = makeStore()
    let gate = store.dependencies.gate
    let first = store.launch(Search(query: "mi"))
    await gate.arrivals(1)
    let second = store.launch(Search(query: "milk"))
    await #expect(throws: CancellationError.self) { try await first.value }
    await gate.arrivals(2)
    gate.open()
    try await second.value
    #expect(store.state.results == ["milk"])
    #expect(store.dependencies.service.recorded == ["search mi", "search milk"])
  }

  @Test("an awaited effect replaced by a newer one throws CancellationError to its caller")
  func replacedAwaitedEffectThrows() async throws {
    let store = makeStore()
    let gate = store.dependencies.gate
    let first = Task { try await store.dispatch(Search(query: "a")) }
    await gate.arrivals(1)
    let second = store.launch(Search(query: "ab"))
    let firstResult = await first.result
    #expect(throws: CancellationError.self) { try firstResult.get() }
    gate.open()
    try await second.value
    #expect(store.state.results == ["ab"])
  }

  @Test("with keepInFlight, a new effect does not run while one with its identifier runs")
  func keepInFlightSkipsNewEffect() async throws {
    let store = makeStore()
    let gate = store.dependencies.gate
    let first = store.launch(Refresh(name: "first"))
    await gate.arrivals(1)
    await #expect(
      throws: EffectNotRunError(
        effectType: String(reflecting: Refresh.self), reason: .alreadyInFlight)
    ) {
      try await store.dispatch(Refresh(name: "second"))
    }
    gate.open()
    #expect(try await first.value == "first")
    #expect(try await store.dispatch(Refresh(name: "third")) == "third")
    #expect(store.dependencies.service.recorded == ["refresh first", "refresh third"])
  }

  @Test("racing searches: whatever the interleaving, the latest search's results win")
  func latestSearchAlwaysWins() async throws {
    let store = makeStore()
    for round in 0..<200 {
      let older = store.launch(InstantSearch(query: "old \(round)"))
      for _ in 0..<(round % 7) { await Task.yield() }
      let newer = store.launch(InstantSearch(query: "new \(round)"))
      await older.finish()
      try await newer.value
      #expect(store.state.results == ["new \(round)"])
    }
  }

  @Test("cancelEffects(identifiedBy:) cancels only effects with that identifier")
  func cancelByIdentifier() async throws {
    let store = makeStore()
    let gate = store.dependencies.gate
    let search = store.launch(Search(query: "x"))
    let other = store.launch(WaitAtGate(name: "o"))
    await gate.arrivals(2)
    store.cancelEffects(identifiedBy: "search")
    await #expect(throws: CancellationError.self) { try await search.value }
    gate.open()
    try await other.value
    #expect(store.state.log == ["o start", "o end"])
  }

  @Test("cancelAllEffects cancels every running effect")
  func cancelAll() async {
    let store = makeStore()
    let gate = store.dependencies.gate
    let handles = (0..<3).map { store.launch(WaitAtGate(name: "\($0)")) }
    await gate.arrivals(3)
    store.cancelAllEffects()
    for handle in handles {
      await #expect(throws: CancellationError.self) { try await handle.value }
    }
    #expect(store.state.log.allSatisfy { $0.hasSuffix("start") })
  }

  @Test("a handle cancelled while its effect waits in the dispatch queue never runs it")
  func cancelBeforeStart() async {
    let store = makeStore()
    var handle: EffectTask<Int>?
    let token = store.addListener { _, _ in
      guard handle == nil else { return }
      // Dispatched while the store notifies: queued until this round ends.
      let queued = store.launch(IncrementAndRead())
      queued.cancel()
      handle = queued
    }
    store.dispatch(Append(entry: "trigger"))
    let expected = EffectNotRunError(
      effectType: String(reflecting: IncrementAndRead.self), reason: .cancelledBeforeStart)
    await #expect(throws: expected) { try await handle?.value }
    #expect(store.state.value == 0)
    token.cancel()
  }

  @Test("a debounced search fires once, after the quiet period, on the injected clock")
  func debounceWithTestClock() async throws {
    let clock = TestClock()
    let store = makeStore(clock: clock)
    let first = store.launch(DebouncedSearch(query: "m"))
    await clock.waitForSleepers(1)
    await clock.advance(by: .milliseconds(200))
    #expect(clock.sleeperCount == 1)
    #expect(store.state.results.isEmpty)

    let second = store.launch(DebouncedSearch(query: "mi"))
    await #expect(throws: CancellationError.self) { try await first.value }
    await clock.waitForSleepers(1)
    await clock.advance(by: .milliseconds(299))
    #expect(store.state.results.isEmpty)
    await clock.advance(by: .milliseconds(1))
    try await second.value
    #expect(store.state.results == ["mi"])
    #expect(clock.now == TestClock.Instant(offset: .milliseconds(500)))
  }
}
