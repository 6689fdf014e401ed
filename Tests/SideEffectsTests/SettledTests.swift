import SideEffects
import StateStoreTesting
import Testing

@MainActor
@Suite("Waiting for a plain store's effects: settled()", .timeLimit(.minutes(5)))
struct SettledTests {
  @Test("settled returns once every launched effect, queued ones too, has finished")
  func returnsWhenNothingRuns() async {
    let store = makeStore()
    store.launch(AppendSeveral(tag: "a"))
    store.launch(SaveInOrder(name: "first"))
    store.launch(SaveInOrder(name: "second"))
    store.dependencies.gate.open()
    await store.settled()
    #expect(store.runningEffectCount == 0)
    #expect(store.state.log.filter { $0.hasPrefix("a") } == ["a0", "a1", "a2"])
    #expect(
      store.state.log.filter { !$0.hasPrefix("a") } == [
        "first start", "first end", "second start", "second end",
      ])
  }

  @Test("settled fails at once when every effect waits for a TestClock, and works once advanced")
  func failsAtOnceOnTheClock() async {
    let clock = TestClock()
    let store = makeStore(clock: clock)
    store.launch(DebouncedSearch(query: "mi"))
    let messages = await recordedIssues { await store.settled() }
    #expect(messages.count == 1)
    #expect(messages.first?.contains("settled() cannot make progress") == true)
    #expect(
      messages.first?.contains(
        "DebouncedSearch is asleep on the TestClock until +300 ms: advance the clock") == true)
    await clock.advance(by: .milliseconds(300))
    await store.settled()
    #expect(store.state.results == ["mi"])
  }

  @Test("settled fails after its time limit with what still runs, warning first")
  func failsAtItsLimit() async {
    let store = makeStore()
    store.launch(IncrementAfterGate())
    let warnings = Collected<String>()
    let failures = await recordedIssues(warnings: warnings) {
      await store.settled(timeLimit: .milliseconds(200))
    }
    #expect(warnings.all.count == 1)
    #expect(warnings.all.first?.contains("settled() has waited 0.05 seconds") == true)
    #expect(failures.count == 1)
    let failure = failures.first ?? ""
    #expect(failure.contains("settled() waited 0.2 seconds of real time without progress"))
    #expect(failure.contains("IncrementAfterGate: running (this store knows no TestClock)"))
    #expect(failure.contains("IncrementAfterGate may only need longer (raise `timeLimit`)"))
    store.cancelAllEffects()
    await store.settled()
  }
}
