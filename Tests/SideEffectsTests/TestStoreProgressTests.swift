import SideEffects
import StateStoreTesting
import Testing

/// Dispatches `Append("tick")` every second on the injected clock, until cancelled.
struct Ticker: SideEffect {
  func sideEffect(_ context: SideEffectContext<Counter, Dependencies>) async throws {
    while true {
      try await context.dependencies.clock.sleep(for: .seconds(1))
      await context.dispatch(Append(entry: "tick"))
    }
  }
}

/// Awaits a debounced search as part of itself.
struct SearchAfterTyping: SideEffect {
  func sideEffect(_ context: SideEffectContext<Counter, Dependencies>) async throws {
    try await context.dispatch(DebouncedSearch(query: "nested"))
  }
}

/// Waits at the store's gate, then increments: a wait that is not on the clock.
struct IncrementAfterGate: SideEffect {
  func sideEffect(_ context: SideEffectContext<Counter, Dependencies>) async throws {
    try await context.dependencies.gate.wait()
    await context.dispatch(Increment())
  }
}

/// Sleeps on the clock in a child task while its own task waits at the gate, then increments.
struct SleepInAChildTask: SideEffect {
  func sideEffect(_ context: SideEffectContext<Counter, Dependencies>) async throws {
    async let nap: Void = context.dependencies.clock.sleep(for: .seconds(1))
    try await context.dependencies.gate.wait()
    await context.dispatch(Increment())
    try await nap
  }
}

@MainActor
@Suite("TestStore never hangs silently", .timeLimit(.minutes(5)))
struct TestStoreProgressTests {
  @Test("the store finds the TestClock in its dependencies")
  func findsTheClock() {
    let clock = TestClock()
    let store = makeTestStore(clock: clock)
    #expect(store.clock === clock)
    #expect(makeTestStore().clock == nil)
  }

  @Test("receive fails at once when the effect sleeps on a clock nobody advanced (it used to hang)")
  func receiveOnASleepingEffect() async {
    let clock = TestClock()
    let store = makeTestStore(clock: clock)
    let sendLine = #line + 1
    await store.send(DebouncedSearch(query: "mi"))
    let messages = await recordedIssues {
      await store.receive(SetResults(results: ["mi"])) { $0.results = ["mi"] }
    }
    #expect(messages.count == 1)
    let message = messages.first ?? ""
    #expect(message.contains("cannot make progress"))
    #expect(
      message.contains(
        "DebouncedSearch (sent at SideEffectsTests/TestStoreProgressTests.swift:\(sendLine)) "
          + "is asleep on the TestClock until +300 ms: advance the clock."))
    // The test can go on: advancing the clock lets the effect finish.
    await clock.advance(by: .milliseconds(300))
    await store.receive(SetResults(results: ["mi"])) { $0.results = ["mi"] }
    await store.finish()
  }

  @Test("finish fails at once on a sleeping effect and cancels it, so nothing else is reported")
  func finishOnASleepingEffect() async {
    let clock = TestClock()
    let store = makeTestStore(clock: clock)
    await store.send(DebouncedSearch(query: "mi"))
    let messages = await recordedIssues { await store.finish() }
    #expect(messages.count == 1)
    #expect(messages.first?.contains("finish() cannot make progress") == true)
    #expect(messages.first?.contains("until +300 ms: advance the clock") == true)
    #expect(store.store.runningEffectCount == 0)
  }

  @Test("a nested effect asleep on the clock is explained through the effect that awaits it")
  func nestedSleep() async {
    let store = makeTestStore(clock: TestClock())
    await store.send(SearchAfterTyping())
    let messages = await recordedIssues { await store.finish() }
    #expect(
      messages.first?.contains(
        "SearchAfterTyping (sent at SideEffectsTests/TestStoreProgressTests.swift:")
        == true)
    #expect(
      messages.first?.contains(
        "awaits DebouncedSearch, which is asleep on the TestClock until +300 ms") == true)
  }

  @Test("advance before the effect reached its sleep still wakes it")
  func advanceBeforeTheSleep() async {
    let clock = TestClock()
    let store = makeTestStore(clock: clock)
    await store.send(DebouncedSearch(query: "milk"))
    await clock.advance(by: .milliseconds(300))
    await store.receive(SetResults(results: ["milk"])) { $0.results = ["milk"] }
    await store.finish()
  }

  @Test("advance and waitForSleepers work in either order")
  func advanceThenWaitForSleepers() async {
    let clock = TestClock()
    let store = makeTestStore(clock: clock)
    await store.send(DebouncedSearch(query: "a"))
    await clock.advance(by: .milliseconds(100))
    await clock.waitForSleepers(1)
    await clock.advance(by: .milliseconds(200))
    await store.receive(SetResults(results: ["a"])) { $0.results = ["a"] }
    await store.finish()
  }

  @Test("waitForSleepers after an advance that let the effect finish returns")
  func waitForSleepersAfterTheEffectFinished() async {
    let clock = TestClock()
    let store = makeTestStore(clock: clock)
    await store.send(DebouncedSearch(query: "b"))
    await clock.advance(by: .milliseconds(300))
    await clock.waitForSleepers(1)
    await store.receive(SetResults(results: ["b"])) { $0.results = ["b"] }
    await store.finish()
  }

  @Test("advance steps from deadline to deadline: a one-second timer ticks three times in 3 s")
  func timerTicksPerStep() async {
    let clock = TestClock()
    let store = makeTestStore(clock: clock)
    let ticker = await store.send(Ticker())
    await clock.advance(by: .seconds(3))
    await store.receive(Append(entry: "tick")) { $0.log = ["tick"] }
    await store.receive(Append(entry: "tick")) { $0.log = ["tick", "tick"] }
    await store.receive(Append(entry: "tick")) { $0.log = ["tick", "tick", "tick"] }
    ticker.cancel()
    await store.finish()
  }

  @Test("the backstop fails a wait that is not on the clock, naming the test and the effect")
  func backstopNamesTheTest() async {
    let store = makeTestStore(clock: TestClock())
    store.timeout = .milliseconds(20)
    let sendLine = #line + 1
    await store.send(IncrementAfterGate())
    let messages = await recordedIssues { await store.receive(Increment.self) { $0.value = 1 } }
    #expect(messages.count == 1)
    let message = messages.first ?? ""
    #expect(message.contains("test \"the backstop fails a wait that is not on the clock"))
    #expect(message.contains("receive(Increment) waited"))
    #expect(
      message.contains(
        "IncrementAfterGate (sent at SideEffectsTests/TestStoreProgressTests.swift:\(sendLine)): "
          + "running, not asleep on the TestClock"))
    await store.cancelInFlightEffects()
  }

  @Test("a slow wait says what still runs, as a warning, before the backstop fails with advice")
  func slowWaitReportsBeforeFailing() async {
    let store = makeTestStore(clock: TestClock())
    store.timeout = .milliseconds(200)
    await store.send(IncrementAfterGate())
    let warnings = Collected<String>()
    let failures = await recordedIssues(warnings: warnings) { await store.finish() }
    #expect(warnings.all.count == 1)
    let warning = warnings.all.first ?? ""
    #expect(warning.contains("finish() has waited 0.05 seconds of real time without progress"))
    #expect(warning.contains("IncrementAfterGate (sent at"))
    #expect(failures.count == 1)
    #expect(
      failures.first?.contains(
        "IncrementAfterGate may only need longer (raise `store.timeout`)") == true)
  }

  @Test("advance gives up waiting after the backstop on an effect that never sleeps, and moves")
  func advanceBackstop() async {
    let clock = TestClock()
    let store = makeTestStore(clock: clock)
    store.timeout = .milliseconds(20)
    await store.send(IncrementAfterGate())
    let messages = await recordedIssues {
      await clock.advance(by: .seconds(1))
    }
    #expect(messages.count == 1)
    #expect(
      messages.first?.contains("advancing the TestClock (waiting for the effects to sleep)") == true
    )
    #expect(clock.now == TestClock.Instant(offset: .seconds(1)))
    await store.cancelInFlightEffects()
  }

  @Test("without a TestClock the backstop still ends the wait, and finish cancels what is left")
  func backstopWithoutAClock() async {
    let store = makeTestStore()
    store.timeout = .milliseconds(20)
    await store.send(IncrementAfterGate())
    let messages = await recordedIssues { await store.finish() }
    #expect(messages.count == 1)
    #expect(messages.first?.contains("finish() waited") == true)
    #expect(messages.first?.contains("this store knows no TestClock") == true)
    #expect(store.store.runningEffectCount == 0)
  }

  @Test("a sleep in an effect's child task does not make the effect itself count as asleep")
  func childTaskSleep() async {
    let clock = TestClock()
    let store = makeTestStore(clock: clock)
    await store.send(SleepInAChildTask())
    await clock.waitForSleepers(1)
    // Not "cannot make progress": the effect's own task waits at the gate, which opens.
    store.store.dependencies.gate.open()
    await store.receive(Increment.self) { $0.value = 1 }
    await clock.advance(by: .seconds(1))
    await store.finish()
  }

  @Test("instants read as offsets from the clock's start")
  func instantDescriptions() {
    #expect(TestClock.Instant(offset: .milliseconds(300)).offsetDescription == "+300 ms")
    #expect(TestClock.Instant(offset: .seconds(2)).offsetDescription == "+2 s")
    #expect(TestClock.Instant(offset: .zero).offsetDescription == "+0 ms")
  }
}
