// What these tests catch (changes to the library that must turn them red):
// - A second, spurious issue after a state check (`TestStore.assertChange`): the "no change was
//   expected" issue recorded twice → `unexpectedChange`; any extra issue with a diff →
//   `mismatchShowsDiff`, `nonExhaustiveStillChecks`. Every test here that collects the
//   recorded issues compares the complete list, text and count, so an extra or a changed
//   message fails it (`sendWithPendingReceived`, `unreceivedAtEnd`, `runningAtEnd` too).

import SideEffects
import StateStoreTesting
import Synchronization
import Testing

/// Values collected from Swift Testing's `@Sendable` issue matcher.
final class Collected<Value: Sendable>: Sendable {
  private let values = Mutex<[Value]>([])
  var all: [Value] { values.withLock { $0 } }
  func append(_ value: Value) { values.withLock { $0.append(value) } }
}

/// The text of the failures (issues of severity `.error`) recorded by `body`, which must record
/// at least one unless `intermittent`; warnings stay warnings, and are added to `warnings`.
///
/// Absorbs only what the test store records with `Issue.record`: a failed `#expect` or a thrown
/// error inside `body` still fails the test.
@MainActor
func recordedIssues(
  intermittent: Bool = false, warnings: Collected<String>? = nil,
  _ body: @MainActor () async -> Void
) async -> [String] {
  let messages = Collected<String>()
  await withKnownIssue(isIntermittent: intermittent) {
    await body()
  } matching: { issue in
    guard isRecordedByTestStore(issue) else { return false }
    let text = issue.comments.map(\.rawValue).joined(separator: "\n")
    guard issue.severity >= .error else {
      warnings?.append(text)
      return false
    }
    messages.append(text)
    return true
  }
  return messages.all
}

/// Whether `issue` was recorded with `Issue.record`, as the test store records its failures.
func isRecordedByTestStore(_ issue: Issue) -> Bool {
  guard case .unconditional = issue.kind else { return false }
  return true
}

@MainActor
func makeTestStore(clock: any Clock<Duration> = ContinuousClock()) -> TestStore<
  Counter, Dependencies
> {
  TestStore(
    initialState: Counter(),
    dependencies: Dependencies(service: FakeService(), gate: Gate(), clock: clock))
}

@MainActor
@Suite("TestStore", .timeLimit(.minutes(5)))
struct TestStoreTests {
  @Test("send asserts the exact change and receive asserts each updater effects dispatch")
  func happyPath() async {
    let store = makeTestStore()
    await store.send(Increment()) { $0.value = 1 }
    await store.send(AppendSeveral(tag: "a", count: 2))
    await store.receive(Append.self) { $0.log = ["a0"] }
    await store.receive(Append(entry: "a1")) { $0.log = ["a0", "a1"] }
    await store.finish()
  }

  @Test("a wrong expectation fails at the caller's line with a field diff")
  func mismatchShowsDiff() async {
    var line = 0
    let messages = await recordedIssues {
      let store = makeTestStore()
      line = #line + 1
      await store.send(Increment()) { $0.value = 2 }
    }
    #expect(
      messages == [
        """
        The state after send(Increment) differs from the expected state (expected → actual):
          value: 2 → 1
        """
      ])
    #expect(line > 0)
  }

  @Test("the issue points at the line of the failing send")
  func issueSourceLocation() async {
    let lines = Collected<Int>()
    var expectedLine = 0
    await withKnownIssue {
      let store = makeTestStore()
      expectedLine = #line + 1
      await store.send(Increment()) { $0.value = 5 }
    } matching: { issue in
      guard isRecordedByTestStore(issue) else { return false }
      lines.append(issue.sourceLocation?.line ?? -1)
      return true
    }
    #expect(lines.all == [expectedLine])
  }

  @Test("a change without a closure fails in exhaustive mode")
  func unexpectedChange() async {
    let messages = await recordedIssues {
      let store = makeTestStore()
      await store.send(Increment())
    }
    #expect(
      messages == [
        """
        send(Increment) changed the state, but no change was expected (expected → actual):
          value: 0 → 1
        """
      ])
  }

  @Test("receiving a different updater type fails")
  func wrongReceivedType() async {
    let messages = await recordedIssues {
      let store = makeTestStore()
      await store.send(AppendSeveral(tag: "a", count: 1))
      await store.receive(Increment.self)
      await store.finish()
    }
    #expect(messages == ["Expected to receive Increment, but received Append."])
  }

  @Test("receive fails, without hanging, when effects finish without dispatching it")
  func receiveAfterEffectsFinished() async {
    let messages = await recordedIssues {
      let store = makeTestStore()
      await store.send(ReportThread())
      await store.receive(SetResults.self)
    }
    #expect(
      messages == [
        "Expected to receive SetResults, but effects finished without dispatching it."
      ])
  }

  @Test("sending while received updaters are unasserted fails")
  func sendWithPendingReceived() async {
    let messages = await recordedIssues {
      let store = makeTestStore()
      await store.send(AppendSeveral(tag: "a", count: 1))
      await store.finish()
      await store.send(Increment()) { $0.value = 1 }
    }
    #expect(
      messages == [
        """
        Before send(Increment), 1 received updater(s) must be asserted: Append. \
        Use `await store.receive(...)` first.
        """
      ])
  }

  @Test("unasserted received updaters fail the test when the store goes away")
  func unreceivedAtEnd() async {
    let messages = await recordedIssues {
      let store = makeTestStore()
      await store.send(AppendSeveral(tag: "a", count: 2))
      await store.finish()
    }
    #expect(
      messages == [
        """
        The test ended with 2 received updater(s) not asserted: Append, Append. Assert each \
        with `await store.receive(...)`, or skip them with `store.skipReceivedUpdaters()`.
        """
      ])
  }

  @Test("a helper that forwards its caller's source location makes leftovers point at the caller")
  func forwardedCreationLocation() async {
    let lines = Collected<Int>()
    var callerLine = 0
    await withKnownIssue {
      callerLine = #line + 1
      let store = makeForwardingTestStore()
      await store.send(AppendSeveral(tag: "a", count: 1))
      await store.finish()
    } matching: { issue in
      guard isRecordedByTestStore(issue) else { return false }
      lines.append(issue.sourceLocation?.line ?? -1)
      return true
    }
    #expect(lines.all == [callerLine])
  }

  /// A test store built the way *Wiring an app* shows: the helper forwards its caller's location.
  private func makeForwardingTestStore(
    sourceLocation: SourceLocation = #_sourceLocation
  ) -> TestStore<Counter, Dependencies> {
    TestStore(
      initialState: Counter(),
      dependencies: Dependencies(service: FakeService(), gate: Gate(), clock: ContinuousClock()),
      sourceLocation: sourceLocation)
  }

  @Test("effects still running when the store goes away fail the test and are cancelled")
  func runningAtEnd() async {
    let gate = Gate()
    let messages = await recordedIssues {
      let store = TestStore(
        initialState: Counter(),
        dependencies: Dependencies(service: FakeService(), gate: gate, clock: ContinuousClock()))
      await store.send(WaitAtGate(name: "w"))
      await gate.arrivals(1)
      await store.receive(Append.self) { $0.log = ["w start"] }
    }
    #expect(
      messages == [
        """
        The test ended with 1 effect(s) still running; WaitAtGate was sent here. Await \
        them with `await store.finish()`, or cancel them with `await store.cancelInFlightEffects()`.
        """
      ])
  }

  @Test("an error no one awaits fails the test")
  func unawaitedErrorFails() async {
    let messages = await recordedIssues {
      let store = makeTestStore()
      await store.send(Failing(message: "oops"))
      await store.finish()
    }
    #expect(
      messages == ["Failing threw an error that nobody awaited: TestError(message: \"oops\")"])
  }

  @Test("non-exhaustive mode checks only what the test states")
  func nonExhaustive() async {
    let store = makeTestStore()
    store.exhaustivity = .off
    await store.send(Increment())
    await store.send(AppendSeveral(tag: "a", count: 3))
    await store.receive(where: { ($0 as? Append)?.entry == "a2" }) { $0.log = ["a0", "a1", "a2"] }
    await store.finish()
    #expect(store.state.log == ["a0", "a1", "a2"])
  }

  @Test("non-exhaustive mode still fails a wrong stated field")
  func nonExhaustiveStillChecks() async {
    let messages = await recordedIssues {
      let store = makeTestStore()
      store.exhaustivity = .off
      await store.send(Increment()) { $0.value = 3 }
    }
    #expect(
      messages == [
        """
        The state after send(Increment) differs from the expected state (expected → actual):
          value: 3 → 1
        """
      ])
  }

  @Test("a debounced search is tested with the test clock, never sleeping")
  func debounce() async {
    let clock = TestClock()
    let store = makeTestStore(clock: clock)
    await store.send(DebouncedSearch(query: "m"))
    await clock.waitForSleepers(1)
    await store.send(DebouncedSearch(query: "mi"))
    await clock.waitForSleepers(1)
    await clock.advance(by: .milliseconds(300))
    await store.receive(SetResults(results: ["mi"])) { $0.results = ["mi"] }
    await store.finish()
  }

  @Test("a returning effect's value can be awaited on the handle send returns")
  func returningEffect() async throws {
    let store = makeTestStore()
    let handle = await store.send(IncrementAndRead())
    await store.receive(Increment.self) { $0.value = 1 }
    #expect(try await handle.value == 1)
    await store.finish()
  }
}
