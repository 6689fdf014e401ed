import ActionLog
import Foundation
import PersistenceTestSupport
import StateStore
import Testing

@testable import StatePersistence

/// An object whose deinitializer runs the application's code on the store's actor.
///
/// Here a dispatch, or the release of a journaled store. Encoded as nothing, so that a state
/// holding one can be journaled.
private final class Sentinel: Sendable, Codable {
  let onDeinit: @Sendable () -> Void

  init(onDeinit: @escaping @Sendable () -> Void) {
    self.onDeinit = onDeinit
  }

  init(from decoder: any Decoder) throws {
    self.onDeinit = {}
  }

  func encode(to encoder: any Encoder) throws {}

  deinit { onDeinit() }
}

/// A state that may hold a sentinel: replacing it runs the sentinel's deinitializer inside the
/// updater's access to the state.
private struct Holding: State, Codable {
  var count = 0
  var sentinel: Sentinel?
}

/// Puts a new sentinel in the state, which alone holds it (the journal holds this updater).
private struct Hold: StateUpdater, Codable {
  let onDeinit: @Sendable () -> Void

  init(onDeinit: @escaping @Sendable () -> Void) {
    self.onDeinit = onDeinit
  }

  init(from decoder: any Decoder) throws {
    self.onDeinit = {}
  }

  func encode(to encoder: any Encoder) throws {}

  func updateState(_ state: inout Holding) {
    state.sentinel = Sentinel(onDeinit: onDeinit)
    state.count += 1
  }
}

/// ``Hold``, journaled with its round.
private struct HoldCounted: StateUpdater, Codable {
  let round: Int
  let onDeinit: @Sendable () -> Void

  init(round: Int, onDeinit: @escaping @Sendable () -> Void) {
    self.round = round
    self.onDeinit = onDeinit
  }

  enum CodingKeys: CodingKey { case round }

  init(from decoder: any Decoder) throws {
    round = try decoder.container(keyedBy: CodingKeys.self).decode(Int.self, forKey: .round)
    onDeinit = {}
  }

  func encode(to encoder: any Encoder) throws {
    var container = encoder.container(keyedBy: CodingKeys.self)
    try container.encode(round, forKey: .round)
  }

  func updateState(_ state: inout Holding) {
    state.sentinel = Sentinel(onDeinit: onDeinit)
    state.count += 1
  }
}

/// Takes the sentinel out of the state, which releases it.
private struct Drop: StateUpdater, Codable {
  func updateState(_ state: inout Holding) {
    state.sentinel = nil
    state.count += 1
  }
}

/// An updater that holds a sentinel, released when the journal forgets the updater.
private struct Carry: StateUpdater, Codable {
  let value: Int
  let sentinel: Sentinel

  func updateState(_ state: inout Numbers) {
    state.items.append(value)
  }
}

/// How many marks decoded from a journal were released, all on the main actor (the store's).
@MainActor private var decodedMarksReleased = 0

/// A value of the application's that a store reads back from the journal.
///
/// The writer decodes a fresh one for every entry each time it reads the journal. Releasing a
/// decoded one anywhere but on the store's actor traps, as a `deinit` that reaches the store
/// would.
private final class Mark: Sendable, Codable {
  let isDecoded: Bool

  init() { isDecoded = false }

  init(from decoder: any Decoder) throws { isDecoded = true }

  func encode(to encoder: any Encoder) throws {}

  deinit {
    guard isDecoded else { return }
    MainActor.assumeIsolated { decodedMarksReleased += 1 }
  }
}

/// A state that holds the mark its last updater put there.
private struct Marked: State, Codable {
  var count = 0
  var mark: Mark?
}

/// Puts its mark in the state, which releases the one before.
private struct PutMark: InvertibleUpdater, Codable {
  var mark = Mark()

  func updateState(_ state: inout Marked) {
    state.mark = mark
    state.count += 1
  }

  func inverse(of oldState: Marked) -> (any StateUpdater<Marked>)? {
    TakeMark()
  }
}

/// Takes the mark out of the state, and one off the count: the inverse of ``PutMark``.
private struct TakeMark: StateUpdater, Codable {
  func updateState(_ state: inout Marked) {
    state.mark = nil
    state.count -= 1
  }
}

/// Keeps the journaled store that a sentinel's deinitializer releases.
@MainActor
private final class Keeper {
  var journaled: JournaledStore<Holding, Void>?
}

/// Counts what a sentinel's deinitializer did on the store's actor.
@MainActor
private final class Tally {
  var dispatches = 0
}

// The journal's ledger is reached without run-time exclusivity checks (`JournalOutbox.swift`),
// and the journal goes on being called after its journaled store is released: these are the
// legal programs that would break them, with deinitializers that run the application's code.
@MainActor
@Suite("A journaled store under deinitializers that run the application's code")
struct HostileDeinitializerTests {
  @Test(
    "an updater whose applying releases the journaled store (a replaced value's deinitializer) is applied, and journaling stops without a crash"
  )
  func releasedWhileApplying() async throws {
    let disk = SimulatedDisk()
    let registry = ActionLogRegistry<Holding>()
    registry.register(Hold.self)
    registry.register(Drop.self)
    let keeper = Keeper()
    keeper.journaled = try await JournaledStore.open(
      directory: "/store", dependencies: (), registry: registry, options: .readingByHand(),
      system: disk)
    let store = try #require(keeper.journaled?.store)
    let outbox = try #require(keeper.journaled?._outbox)
    weak let released = keeper.journaled
    // The sentinel's deinitializer releases the last reference to the journaled store, which
    // stops journaling and closes the writer while the store is applying `Drop`.
    store.dispatch(Hold { MainActor.assumeIsolated { keeper.journaled = nil } })
    #expect(released?.lastSequence == 1)

    store.dispatch(Drop())

    #expect(released == nil, "released by the deinitializer, inside the updater")
    #expect(store.state.count == 2)
    #expect(store.state.sentinel == nil)
    store.dispatch(Drop())
    #expect(store.state.count == 3, "the store goes on")
    #expect(outbox._ledger._journaledCount == 1, "unjournaled from the release on")
  }

  @Test(
    "an updater whose deinitializer dispatches, released on the actor when the journal forgets it, has that dispatch journaled after it"
  )
  func forgottenUpdaterDispatches() async throws {
    let disk = SimulatedDisk()
    let registry = numbersRegistry()
    registry.register(Carry.self)
    let first = try await JournaledStore.open(
      directory: "/store", dependencies: (), registry: registry, options: .readingByHand(),
      system: disk)
    let second = try await JournaledStore.open(
      directory: "/store", dependencies: (), registry: registry, options: .readingByHand(),
      system: disk)
    let tally = Tally()
    let store = first.store
    for value in 1...3 {
      // Each deinitializer that runs on the actor dispatches to the store it was journaled by.
      first.store.dispatch(
        Carry(
          value: value,
          sentinel: Sentinel {
            MainActor.assumeIsolated {
              tally.dispatches += 1
              store.dispatch(Append(value: 100 + value))
            }
          }))
    }
    try await first.flush()
    second.store.dispatch(Append(value: 50))
    try await second.flush()

    // Hearing `50`, `first` forgets its three written updaters: the last references to them.
    try await first.catchUp()

    #expect(tally.dispatches == 3, "every deinitializer ran on the actor")
    #expect(first.store.state.items == [1, 2, 3, 50, 101, 102, 103])
    #expect(first.lastSequence == 7)
    try await first.close()
    try await second.close()
    let journal = try await JournaledStore<Numbers, Void>.read(
      directory: "/store", registry: registry, system: disk)
    #expect(journal.state.items == [1, 2, 3, 50, 101, 102, 103])
    #expect(journal.damage == nil)
  }

  @Test(
    "in one process, updaters whose deinitializers dispatch through MainActor.assumeIsolated are released on the actor, across 20 flushes"
  )
  func writtenUpdatersReleasedOnActor() async throws {
    let disk = SimulatedDisk()
    let registry = numbersRegistry()
    registry.register(Carry.self)
    var journaled: JournaledStore<Numbers, Void>? = try await JournaledStore.open(
      directory: "/store", dependencies: (), registry: registry, options: .readingByHand(),
      system: disk)
    let tally = Tally()
    let store = try #require(journaled?.store)
    for round in 1...20 {
      // `assumeIsolated` traps if the deinitializer runs anywhere but on the main actor: on
      // the journal's writer queue, say.
      store.dispatch(
        Carry(
          value: round,
          sentinel: Sentinel {
            MainActor.assumeIsolated {
              tally.dispatches += 1
              store.dispatch(Append(value: 1_000 + round))
            }
          }))
      try await journaled?.flush()
    }
    try await journaled?.close()
    // The last updater is the store's until the journaled store goes.
    journaled = nil
    // Whatever the writer gave back reaches the actor once the tasks before this one ran.
    for _ in 0..<100 where tally.dispatches < 20 { await Task.yield() }
    #expect(tally.dispatches == 20, "every deinitializer ran, on the actor")
    #expect(store.state.items.filter { $0 <= 20 } == Array(1...20))
  }

  @Test(
    "a snapshot's state whose deinitializer dispatches through MainActor.assumeIsolated is released on the actor"
  )
  func snapshotStatesReleasedOnActor() async throws {
    let disk = SimulatedDisk()
    let registry = ActionLogRegistry<Holding>()
    registry.register(HoldCounted.self)
    registry.register(Drop.self)
    let journaled = try await JournaledStore.open(
      directory: "/store", dependencies: (), registry: registry,
      options: .readingByHand(snapshotInterval: 2), system: disk)
    let tally = Tally()
    let store = journaled.store
    for round in 1...20 {
      // The state holds the sentinel while snapshots are taken of it; replacing it later
      // leaves the snapshots' copies as the last references.
      store.dispatch(
        HoldCounted(round: round) {
          MainActor.assumeIsolated {
            tally.dispatches += 1
            store.dispatch(Drop())
          }
        })
      try await journaled.flush()
    }
    store.dispatch(Drop())
    try await journaled.flush()
    try await journaled.close()
    for _ in 0..<100 where tally.dispatches < 20 { await Task.yield() }
    #expect(tally.dispatches == 20, "every sentinel was released, on the actor")
  }

  @Test(
    "a journaled store released without close, its writer's queue busy, releases its initial state on the actor"
  )
  func initialStateReleasedOnActor() async throws {
    let tally = Tally()
    let registry = ActionLogRegistry<Holding>()
    registry.register(Drop.self)
    var journaled: JournaledStore<Holding, Void>? = try await JournaledStore.open(
      directory: "/store",
      initialState: Holding(
        sentinel: Sentinel { MainActor.assumeIsolated { tally.dispatches += 1 } }),
      dependencies: (), registry: registry, options: .readingByHand(), system: SimulatedDisk())
    // The store's copy of the initial state goes with the first updater: the writer, which a
    // read of the journal starts from, holds the last.
    journaled?.store.dispatch(Drop())
    try await journaled?.flush()
    #expect(tally.dispatches == 0)
    try await releaseWhileItsWriterIsBusy(&journaled)
    #expect(tally.dispatches == 1, "released on the actor, or it trapped")
  }

  @Test(
    "a journaled store released without close, a failed write keeping a snapshot's state, releases that state on the actor"
  )
  func unwrittenSnapshotReleasedOnActor() async throws {
    let tally = Tally()
    let registry = ActionLogRegistry<Holding>()
    registry.register(HoldCounted.self)
    registry.register(Drop.self)
    let calls = FaultyCalls(SimulatedDisk())
    var journaled: JournaledStore<Holding, Void>? = try await JournaledStore.open(
      directory: "/store", dependencies: (), registry: registry,
      options: .readingByHand(snapshotInterval: 2), system: calls)
    for _ in 1...2 {
      journaled?.store.dispatch(Drop())
      try await journaled?.flush()
    }
    // A snapshot is due: it rides with the next entry, whose write fails.
    let writes = calls.calls[.write] ?? 0
    calls.inject(.init(kind: .write, occurrence: writes + 1, code: EIO, persistent: true))
    journaled?.store.dispatch(
      HoldCounted(round: 1) { MainActor.assumeIsolated { tally.dispatches += 1 } })
    await #expect(throws: PersistenceError.self) { try await journaled?.flush() }
    // The store's copy goes: the snapshot of the entry left unwritten holds the last. The
    // writer goes last on its queue or on the actor, whichever of the two lets it go last;
    // either way its close gave the state back first.
    journaled?.store.dispatch(Drop())
    await #expect(throws: PersistenceError.self) { try await journaled?.flush() }
    #expect(tally.dispatches == 0)
    try await releaseWhileItsWriterIsBusy(&journaled)
    #expect(tally.dispatches == 1, "released on the actor, or it trapped")
  }
}

/// Releases `journaled` while its writer's queue is busy, so that the writer's last reference
/// is the close that the release queues, behind the busy job; returns once the queue and what
/// it scheduled on the main actor have run.
@MainActor
private func releaseWhileItsWriterIsBusy<S: State & Codable>(
  _ journaled: inout JournaledStore<S, Void>?
) async throws {
  let queue = try #require(journaled?._writer._queue)
  // Nothing the writer scheduled before still holds it.
  await settle(queue)
  let busy = DispatchSemaphore(value: 0)
  queue.async { busy.wait() }
  journaled = nil
  busy.signal()
  await settle(queue)
}

/// Returns once `queue` has run everything queued on it before, and the main actor every job
/// those scheduled on it: nothing the writer scheduled still holds it.
@MainActor
private func settle(_ queue: DispatchQueue) async {
  await withCheckedContinuation { (done: CheckedContinuation<Void, Never>) in
    queue.async { done.resume() }
  }
  for _ in 0..<10 { await Task.yield() }
}

// Both count the marks decoded in the process: one at a time.
@MainActor
@Suite("A journaled store releases what it reads of other processes on its actor", .serialized)
struct CatchingUpReleasesOnActorTests {
  @Test(
    "what a store reads of another process's appends (the updaters, the states they replace) is released on the actor, even when the read finds damage"
  )
  func catchingUpReleasesOnActor() async throws {
    let before = decodedMarksReleased
    let disk = SimulatedDisk()
    let registry = ActionLogRegistry<Marked>()
    registry.register(PutMark.self)
    let writing = try await JournaledStore.open(
      directory: "/store", dependencies: (), registry: registry, options: .readingByHand(),
      system: disk)
    let reading = try await JournaledStore.open(
      directory: "/store", dependencies: (), registry: registry, options: .readingByHand(),
      system: disk)
    for _ in 1...3 { writing.store.dispatch(PutMark()) }
    try await writing.flush()
    try await reading.catchUp()
    writing.store.dispatch(PutMark())
    try await writing.flush()
    // The whole journal is read again: entries 1 to 3 are decoded anew, and replaced.
    try await reading.catchUp()
    #expect(reading.store.state.count == 4)

    // A line that does not read: the entries before it are decoded, and the read fails.
    let segment = "/store/journal-1.jsonl"
    disk.setData(try #require(disk.data(at: segment)) + Array("not an entry\n".utf8), at: segment)
    await #expect(throws: PersistenceError.self) { try await reading.catchUp() }
    #expect(reading.store.state.count == 4, "a failed read leaves the state as it was")

    try await writing.close()
    try await reading.close()
    // Decoded: 3 by the first read, 4 by the second and 4 by the failed one; the reading
    // store's state still holds the last mark of the second.
    let released = 3 + 4 + 4 - 1
    // What the writer gave back reaches the actor once the tasks before this one ran.
    for _ in 0..<100 where decodedMarksReleased - before < released { await Task.yield() }
    #expect(decodedMarksReleased - before == released, "each on the actor, or it trapped")
  }

  @Test(
    "a read of the journal that fails after decoding the snapshot's state releases that state on the actor"
  )
  func failedReadReleasesSnapshotOnActor() async throws {
    let before = decodedMarksReleased
    let disk = SimulatedDisk()
    let calls = FaultyCalls(disk)
    let registry = ActionLogRegistry<Marked>()
    registry.register(PutMark.self)
    let writing = try await JournaledStore.open(
      directory: "/store", dependencies: (), registry: registry,
      options: .readingByHand(snapshotInterval: 2), system: disk)
    let reading = try await JournaledStore.open(
      directory: "/store", dependencies: (), registry: registry, options: .readingByHand(),
      system: calls)
    for _ in 1...5 {
      writing.store.dispatch(PutMark())
      try await writing.flush()
    }
    // The segments changed, so the read opens the snapshot first (its state holds a mark), then
    // the segment after it: that open fails.
    let opens = calls.calls[.open] ?? 0
    calls.inject(.init(kind: .open, occurrence: opens + 2, code: EIO, persistent: true))
    await #expect(throws: PersistenceError.self) { try await reading.catchUp() }
    #expect(calls.injected > 0)
    #expect(reading.store.state.count == 0, "a failed read leaves the state as it was")
    calls.inject(nil)
    try await reading.catchUp()
    #expect(reading.store.state.count == 5)
    try await writing.close()
    try await reading.close()
    // What the writer gave back reaches the actor once the tasks before this one ran.
    for _ in 0..<100 where decodedMarksReleased == before { await Task.yield() }
    #expect(decodedMarksReleased > before, "released on the actor, or it trapped")
  }

  @Test(
    "history and undo, reading the journal from a snapshot whose state holds a mark, release what they read on the actor"
  )
  func historyAndUndoReleaseOnActor() async throws {
    let before = decodedMarksReleased
    let registry = ActionLogRegistry<Marked>()
    registry.register(PutMark.self)
    registry.register(TakeMark.self)
    let journaled = try await JournaledStore.open(
      directory: "/store", dependencies: (), registry: registry,
      options: .readingByHand(snapshotInterval: 2), system: SimulatedDisk())
    for _ in 1...5 {
      journaled.store.dispatch(PutMark())
      try await journaled.flush()
    }
    // The snapshot's state holds a mark, which the first entry after it replaces.
    var history: [HistoryEntry<Marked>]? = try await journaled.history()
    #expect(history?.last?.sequence == 5)
    history = nil
    let undone = try await journaled.undo()
    #expect(undone?.sequence == 5)
    #expect(journaled.store.state.count == 4)
    try await journaled.close()
    // What the writer gave back reaches the actor once the tasks before this one ran.
    for _ in 0..<100 where decodedMarksReleased == before { await Task.yield() }
    #expect(decodedMarksReleased > before, "released on the actor, or it trapped")
  }
}
