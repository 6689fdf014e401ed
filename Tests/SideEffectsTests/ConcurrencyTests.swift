import SideEffects
import Testing

@MainActor
@Suite("Effects run concurrently, their updaters in order", .timeLimit(.minutes(5)))
struct ConcurrencyTests {
  @Test("two effects are in flight at the same time")
  func effectsOverlap() async throws {
    let store = makeStore()
    let gate = store.dependencies.gate
    let first = store.launch(WaitAtGate(name: "a"))
    let second = store.launch(WaitAtGate(name: "b"))
    // Both have reached the closed gate: neither waited for the other to finish.
    await gate.arrivals(2)
    #expect(Set(store.state.log) == ["a start", "b start"])
    gate.open()
    try await first.value
    try await second.value
    #expect(Set(store.state.log.suffix(2)) == ["a end", "b end"])
  }

  @Test("an awaited effect does not block the store: updaters apply while it waits")
  func awaitedEffectLeavesStoreFree() async throws {
    let store = makeStore()
    let gate = store.dependencies.gate
    let waiting = Task { try await store.dispatch(WaitAtGate(name: "w")) }
    await gate.arrivals(1)
    store.dispatch(Increment())
    #expect(store.state.value == 1)
    gate.open()
    try await waiting.value
    #expect(store.state.log == ["w start", "w end"])
  }

  @Test("each effect's updaters apply in its own order, and listeners see the applied order")
  func updatersKeepFIFOAcrossEffects() async throws {
    let store = makeStore()
    var seen: [String] = []
    let token = store.addListener { old, new in
      seen.append(contentsOf: new.log.dropFirst(old.log.count))
    }
    let tags = ["a", "b", "c", "d"]
    let tasks = tags.map { store.launch(AppendSeveral(tag: $0, count: 40)) }
    for task in tasks { try await task.value }
    #expect(store.state.log.count == 160)
    #expect(seen == store.state.log)
    for tag in tags {
      let own = store.state.log.filter { $0.hasPrefix(tag) }
      #expect(own == (0..<40).map { "\(tag)\($0)" })
    }
    token.cancel()
  }

  @Test("effects awaited from concurrent tasks all complete with their own values")
  func concurrentReturningEffects() async throws {
    let store = makeStore()
    let values = try await withThrowingTaskGroup(of: Int.self) { group in
      for _ in 0..<20 {
        group.addTask { try await store.dispatch(IncrementAndRead()) }
      }
      var values: [Int] = []
      for try await value in group { values.append(value) }
      return values
    }
    #expect(store.state.value == 20)
    #expect(values.count == 20)
    #expect(values.allSatisfy { (1...20).contains($0) })
  }
}
