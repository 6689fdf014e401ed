import Foundation
import StateStore
import Testing

@testable import StatePersistence

/// The store's actor keeps each dispatch's entry in a batch of its own, handed to the writer
/// whole (see `JournalOutbox`): these pin what that must not change.
// A backstop against a hang, as generous as the SideEffects suites' (see the comment in
// `Tests/SideEffectsTests/Support/Fixtures.swift`): on the main actor, these tests wait behind
// the todo app's fault sweep, which under ThreadSanitizer on a loaded machine kept them
// waiting for over a minute with nothing stuck.
@MainActor
@Suite("Hand-off of journaled entries to the writer", .timeLimit(.minutes(5)))
struct HandOffTests {
  @Test(
    "entries dispatched in bursts across hand-offs (full batches, the end of a job, a flush) are written in order, each once"
  )
  func burstsAreWrittenInOrderOnce() async throws {
    let disk = SimulatedDisk()
    let bursts = try await Bursts(on: disk)
    let journaled = bursts.journaled
    let limit = _JournalLedger<Numbers>._batchLimit
    func burst(_ count: Int) { bursts.dispatch(count) }
    // Two full batches handed over at once, the rest by the task at the end of this job.
    burst(2 * limit + 7)
    #expect(journaled._outbox._ledger._batch.count == 7)
    while !journaled._outbox._ledger._batch.isEmpty { await Task.yield() }
    // One entry more than a batch, then a flush hands the rest over.
    burst(limit + 1)
    try await journaled.flush()
    #expect(journaled.durableSequence == bursts.next)
    // A burst within one batch, written while the next burst fills another.
    burst(3)
    while !journaled._outbox._ledger._batch.isEmpty { await Task.yield() }
    burst(limit)
    try await journaled.close()

    let lines = String(decoding: disk.data(at: "/store/journal-1.jsonl") ?? [], as: UTF8.self)
      .split(separator: "\n").filter { $0.hasPrefix(#"{"seq":"#) }
    #expect(lines.count == bursts.next)
    let reopened = try await JournaledStore.readNumbers(on: disk)
    #expect(reopened.damage == nil)
    #expect(reopened.lastSequence == bursts.next)
    #expect(reopened.state == numbers(upTo: bursts.next), "every entry once, in dispatch order")
  }

  @Test(
    "a full batch in the middle of a job is handed over without waking an idle writer, which the end of the job wakes; a close before then strands nothing"
  )
  func fullBatchesWaitForTheEndOfTheJob() async throws {
    let disk = SimulatedDisk()
    let bursts = try await Bursts(on: disk)
    let journaled = bursts.journaled
    let limit = _JournalLedger<Numbers>._batchLimit
    func writerState() -> (pending: Int, scheduled: Bool) {
      journaled._writer._shared.withLock { ($0._pending.count, $0._isScheduled) }
    }
    // Idle: the drain that made the flush durable has returned.
    while writerState().scheduled { await Task.yield() }
    bursts.dispatch(limit)
    #expect(journaled._outbox._ledger._batch.isEmpty, "handed over full")
    let state = writerState()
    #expect(state.pending == 1 && !state.scheduled, "handed over, the writer left idle")
    #expect(journaled._outbox._ledger._handOffIsScheduled, "the end of the job is still to come")
    while journaled._outbox._ledger._handOffIsScheduled { await Task.yield() }
    #expect(writerState().scheduled || writerState().pending == 0, "woken at the end of the job")
    try await journaled.flush()
    #expect(journaled.durableSequence == bursts.next)

    // Full batches, then a close in the same job: the close wakes the writer first.
    while writerState().scheduled { await Task.yield() }
    bursts.dispatch(2 * limit)
    #expect(writerState().pending == 2)
    try await journaled.close()
    let reopened = try await JournaledStore.readNumbers(on: disk)
    #expect(reopened.damage == nil)
    #expect(reopened.state == numbers(upTo: bursts.next), "every entry once, in dispatch order")
  }

  @Test("a flush waits for the entries still waiting on the store's actor")
  func flushHandsOverTheWaitingBatch() async throws {
    let disk = SimulatedDisk()
    let journaled = try await JournaledStore.openNumbers(on: disk)
    for value in 1...5 { journaled.store.dispatch(Append(value: value)) }
    #expect(journaled._outbox._ledger._batch.count == 5, "not handed to the writer yet")
    try await journaled.flush()
    #expect(journaled._outbox._ledger._batch.isEmpty)
    #expect(journaled.durableSequence == 5)
    #expect(journaled.status == .saved)
    let read = try await JournaledStore.readNumbers(on: disk)
    #expect(read.state == numbers(upTo: 5))
    try await journaled.close()
  }

  @Test("entries dispatched just before the journaled store is released are still written")
  func releaseHandsOverTheWaitingBatch() async throws {
    let disk = SimulatedDisk()
    var writer: _JournalWriter<Numbers>?
    do {
      let journaled = try await JournaledStore.openNumbers(on: disk)
      writer = journaled._writer
      for value in 1...3 { journaled.store.dispatch(Append(value: value)) }
      #expect(journaled._outbox._ledger._batch.count == 3)
    }
    // Everything the writer was given before it closed its files has run.
    _ = await writer?.run { .success(()) }
    let read = try await JournaledStore.readNumbers(on: disk)
    #expect(read.state == numbers(upTo: 3))
  }

  @Test("a written batch comes back emptied from the writer, and a later batch fills its memory")
  func writtenBatchesAreReused() async throws {
    let disk = SimulatedDisk()
    let bursts = try await Bursts(on: disk)
    let journaled = bursts.journaled
    let limit = _JournalLedger<Numbers>._batchLimit
    func burst(_ count: Int) { bursts.dispatch(count) }
    func batchAddress() -> UnsafeRawPointer? {
      journaled._outbox._ledger._batch.withUnsafeBufferPointer { UnsafeRawPointer($0.baseAddress) }
    }
    func spareAddresses() -> Set<UnsafeRawPointer?> {
      journaled._writer._shared.withLock { shared in
        Set(shared._spares.map { $0.withUnsafeBufferPointer { UnsafeRawPointer($0.baseAddress) } })
      }
    }
    // Full batches, each handed over at once and then written, until the writer keeps one: a
    // batch is retired by the hand-off after the one that learns it is durable, and emptied by
    // the drain that takes it (when a `Heard` is on its way, a later one). Bounded, so that a
    // writer that never keeps one fails rather than hangs.
    var rounds = 0
    while spareAddresses().isEmpty && rounds < 20 {
      burst(limit)
      #expect(journaled._outbox._ledger._batch.isEmpty, "handed over full")
      try await journaled.flush()
      rounds += 1
    }
    let spares = journaled._writer._shared.withLock { $0._spares }
    #expect(!spares.isEmpty, "the writer kept no emptied batch after \(rounds) batches")
    #expect(spares.count <= 2)
    #expect(spares.allSatisfy { $0.isEmpty && $0.capacity >= limit })
    // Nothing reaches the writer between here and the next hand-off, which takes one of these
    // back (they are alive, so no new allocation can share an address with them): the next
    // batch fills a retired batch's memory.
    let kept = spareAddresses()
    burst(limit)
    #expect(journaled._outbox._ledger._batch.isEmpty)
    #expect(kept.contains(batchAddress()), "the next batch is a retired batch's memory")
    burst(5)
    try await journaled.close()
    let reopened = try await JournaledStore.readNumbers(on: disk)
    #expect(reopened.damage == nil)
    #expect(reopened.state == numbers(upTo: bursts.next), "every entry once, in dispatch order")
  }

  /// A journaled store on `disk` that never takes a snapshot, and bursts of `Append`s dispatched
  /// to it, numbered on from 1.
  @MainActor
  final class Bursts {
    let journaled: JournaledStore<Numbers, Void>
    /// The value of the last `Append` dispatched.
    var next = 0

    init(on disk: SimulatedDisk) async throws {
      journaled = try await JournaledStore.openNumbers(
        on: disk, options: JournalOptions(snapshotInterval: 1_000_000))
    }

    /// Dispatches `count` appends, one after another.
    func dispatch(_ count: Int) {
      for _ in 0..<count {
        next += 1
        journaled.store.dispatch(Append(value: next))
      }
    }
  }
}
