import SideEffects
import StateStoreTesting
import Testing

@MainActor
@Suite(
  "A test asleep on the TestClock it must advance fails at once, naming the wait",
  .timeLimit(.minutes(5)))
struct TestAsleepOnItsClockTests {
  @Test("a test that sleeps on its own TestClock fails at once, naming the sleep and the sleepers")
  func sleepOnTheClock() async {
    let clock = TestClock()
    let store = makeTestStore(clock: clock)
    await store.send(DebouncedSearch(query: "mi"))
    // The search reaches its sleep.
    await clock.waitForSleepers()
    var thrown: (any Error)?
    let line = #line + 2
    let messages = await recordedIssues {
      do { try await clock.sleep(for: .milliseconds(300)) } catch { thrown = error }
    }
    #expect(messages.count == 1)
    let message = messages.first ?? ""
    #expect(
      message.contains(
        "sleeps on its own TestClock until +300 ms (at "
          + "SideEffectsTests/TestAsleepOnItsClockTests.swift:\(line)), but only the test "
          + "advances that clock"))
    #expect(message.contains("`await clock.advance(by: .milliseconds(300))`"))
    #expect(message.contains("Asleep on the clock now:\n  DebouncedSearch until +300 ms"))
    #expect(String(describing: thrown).contains("the test's sleep on its own TestClock"))
    // What the test meant works on.
    await clock.advance(by: .milliseconds(300))
    await store.receive(SetResults(results: ["mi"])) { $0.results = ["mi"] }
    await store.finish()
  }

  @Test("a sleep through `any Clock` fails at once too, at the test, with no effect asleep")
  func sleepThroughTheProtocol() async {
    let clock = TestClock()
    let anyClock: any Clock<Duration> = clock
    var thrown = false
    let messages = await recordedIssues {
      do { try await anyClock.sleep(for: .seconds(1)) } catch { thrown = true }
    }
    #expect(thrown)
    #expect(messages.count == 1)
    #expect(messages.first?.contains("sleeps on its own TestClock until +1 s, but only") == true)
    #expect(messages.first?.contains("No effect sleeps on the clock now.") == true)
  }

  @Test("awaiting a sent effect asleep on the clock fails at once, naming it, and cancels it")
  func awaitingAnEffectAsleep() async {
    let clock = TestClock()
    let store = makeTestStore(clock: clock)
    let (search, line) = (await store.send(DebouncedSearch(query: "mi")), #line)
    let messages = await recordedIssues { await search.finish() }
    #expect(messages.count == 1)
    let message = messages.first ?? ""
    #expect(
      message.contains(
        "The test's await of DebouncedSearch cannot make progress: every running effect waits "
          + "for the TestClock, which is at +0 ms."))
    #expect(
      message.contains(
        "DebouncedSearch (sent at SideEffectsTests/TestAsleepOnItsClockTests.swift:\(line)) is "
          + "asleep on the TestClock until +300 ms: advance the clock."))
    #expect(message.contains("Only the test advances the clock, and it is waiting"))
    #expect(search.isCancelled == false)
    #expect(store.state.results.isEmpty)
    await store.finish()
  }

  @Test("awaiting a dispatch on the store under the test store fails at once the same way")
  func awaitingADispatch() async {
    let clock = TestClock()
    let store = makeTestStore(clock: clock)
    let messages = await recordedIssues {
      await #expect(throws: CancellationError.self) {
        try await store.store.dispatch(DebouncedSearch(query: "mi"))
      }
    }
    #expect(messages.count == 1)
    #expect(
      messages.first?.contains(
        "DebouncedSearch (not sent by the test store) is asleep on the TestClock until +300 ms")
        == true)
    await store.finish()
  }

  @Test("awaiting an effect that ends on its own, or after the clock moved, reports nothing")
  func awaitsThatEnd() async {
    let clock = TestClock()
    let store = makeTestStore(clock: clock)
    let several = await store.send(AppendSeveral(tag: "a", count: 2))
    await several.finish()
    await store.receive(Append(entry: "a0")) { $0.log = ["a0"] }
    await store.receive(Append(entry: "a1")) { $0.log = ["a0", "a1"] }
    let search = await store.send(DebouncedSearch(query: "mi"))
    await clock.advance(by: .milliseconds(300))
    await search.finish()
    await store.receive(SetResults(results: ["mi"])) { $0.results = ["mi"] }
    await store.finish()
  }

  @Test("a child task of the test may sleep on the clock the test advances")
  func childTaskSleeps() async throws {
    let clock = TestClock()
    async let nap: Void = clock.sleep(for: .seconds(1))
    await clock.waitForSleepers(1)
    await clock.advance(by: .seconds(1))
    try await nap
    #expect(clock.now.offset == .seconds(1))
  }
}
