import SideEffects
import StateStore
import Testing

/// The store's record of running effects: each run's handle is its entry, linked with the
/// others, and every kind of run (launched, awaited, identified, queued) must stay reachable by
/// `cancelAllEffects`, counted by test tools, and leave the record exactly once.
@MainActor
@Suite("Effect run bookkeeping", .timeLimit(.minutes(5)))
struct RunBookkeepingTests {
  @Test("cancelAllEffects reaches launched, awaited, identified and queued runs alike")
  func cancelAllReachesEveryKindOfRun() async {
    let store = makeStore()
    let gate = store.dependencies.gate
    let launched = store.launch(WaitAtGate(name: "launched"))
    let awaited = Task.detached { try await store.dispatch(WaitAtGate(name: "awaited")) }
    let identified = store.launch(Search(query: "identified"))
    let first = store.launch(SaveInOrder(name: "first"))
    let queued = store.launch(SaveInOrder(name: "queued"))
    // The queued save never reaches the gate: it waits for the first.
    await gate.arrivals(4)
    #expect(store.runningEffectCount == 5)
    store.cancelAllEffects()
    for handle in [launched, identified, first, queued] {
      await #expect(throws: CancellationError.self) { try await handle.value }
    }
    await #expect(throws: CancellationError.self) { try await awaited.value }
    #expect(store.runningEffectCount == 0)
    #expect(store.runningEffects.isEmpty)
    #expect(!store.state.log.contains("queued start"))
  }

  @Test("runs ending out of order leave the others listed, oldest first, with their names")
  func runsEndingOutOfOrder() async throws {
    let store = makeStore()
    let gate = store.dependencies.gate
    let slow = store.launch(WaitAtGate(name: "slow"))
    let quick = (0..<3).map { _ in store.launch(IncrementAndRead()) }
    let later = store.launch(WaitAtGate(name: "later"))
    for handle in quick { _ = try await handle.value }
    await gate.arrivals(2)
    let running = store.runningEffects
    #expect(running.map(\.name) == ["WaitAtGate", "WaitAtGate"])
    #expect(running.map(\.token) == [slow.token, later.token].compactMap { $0 })
    #expect(running[0].token < running[1].token)
    gate.open()
    try await later.value
    try await slow.value
    #expect(store.runningEffectCount == 0)
    #expect(store.state.value == 3)
  }

  @Test("every awaiter off the main actor is resumed once, with its own effect's value")
  func awaitersOffMainActorResumedOnce() async throws {
    let store = makeStore()
    let results = try await withThrowingTaskGroup(of: Int.self) { group in
      for _ in 0..<200 {
        group.addTask { try await store.dispatch(IncrementAndRead()) }
      }
      var results: [Int] = []
      for try await value in group { results.append(value) }
      return results
    }
    #expect(results.count == 200)
    // Each effect read the counter after its own increment.
    #expect(results.allSatisfy { (1...200).contains($0) })
    #expect(store.state.value == 200)
    #expect(store.runningEffectCount == 0)
  }

  @Test("cancelling an awaiting task off the main actor cancels its effect, and only that one")
  func cancellingAwaiterOffMainActor() async throws {
    let store = makeStore()
    let gate = store.dependencies.gate
    let cancelled = Task.detached { try await store.dispatch(WaitAtGate(name: "cancelled")) }
    let kept = Task.detached { try await store.dispatch(WaitAtGate(name: "kept")) }
    await gate.arrivals(2)
    cancelled.cancel()
    await #expect(throws: CancellationError.self) { try await cancelled.value }
    #expect(store.runningEffectCount == 1)
    gate.open()
    try await kept.value
    #expect(store.state.log.contains("kept end"))
    #expect(!store.state.log.contains("cancelled end"))
    #expect(store.runningEffectCount == 0)
  }

  @Test(
    "an effect's start and finish are observed once each per run, the finish after its last updater"
  )
  func changesObservedOncePerRun() async throws {
    let store = makeStore()
    var changes: [(running: Int, value: Int)] = []
    let token = store.observeEffectChanges {
      changes.append((store.runningEffectCount, store.state.value))
    }
    let handles = (0..<20).map { _ in store.launch(IncrementAndRead()) }
    #expect(changes.count == 20)
    #expect(changes.map(\.running) == Array(1...20))
    for handle in handles { _ = try await handle.value }
    try await store.dispatch(IncrementAndRead())
    #expect(changes.count == 42)
    #expect(changes.last?.value == 21)
    #expect(changes.last?.running == 0)
    token.cancel()
  }

  @Test("a queued run is observed when it starts, when its turn comes and when it ends")
  func queuedChangesObserved() async throws {
    let store = makeStore()
    var changes: [[Bool]] = []
    let token = store.observeEffectChanges {
      changes.append(store.runningEffects.map { !$0.queuedBehind.isEmpty })
    }
    let first = store.launch(SaveInOrder(name: "a"))
    let second = store.launch(SaveInOrder(name: "b"))
    // The second start is heard at once, queued behind the first.
    #expect(changes == [[false], [false, true]])
    store.dependencies.gate.open()
    try await first.value
    try await second.value
    // First's end (second gets its turn), second's turn taken, second's end.
    #expect(changes.count == 5)
    #expect(changes.last == [])
    token.cancel()
  }
}

/// Logs `start`, waits at the store's gate, then logs `end`; saves queue behind each other.
struct SaveInOrder: SideEffect {
  let name: String
  var cancellationID: (any Hashable & Sendable)? { "save" }
  var cancellationPolicy: CancellationPolicy { .enqueue }
  func sideEffect(_ context: SideEffectContext<Counter, Dependencies>) async throws {
    await context.dispatch(Append(entry: "\(name) start"))
    try await context.dependencies.gate.wait()
    await context.dispatch(Append(entry: "\(name) end"))
  }
}
