import Foundation
import PersistenceTestSupport
import StateStore
import Synchronization
import Testing

@testable import StatePersistence

/// Calls that, when a reader first opens `journal-1.jsonl`, compact the journal first, as a
/// writer in another process would between the reader's listing and its open: a snapshot of
/// `state` at `sequence`, then the covered segment removed.
private final class CompactingBeforeOpen: ForwardingCalls {
  let base: any SystemCalls
  let state: Numbers
  let sequence: Int
  private let done = Mutex(false)

  init(_ base: any SystemCalls, state: Numbers, sequence: Int) {
    self.base = base
    self.state = state
    self.sequence = sequence
  }

  func open(_ path: String, flags: Int32, mode: mode_t) throws(SystemCallFailure) -> Int32 {
    let compacts = done.withLock { done in
      defer { done = true }
      return !done && path.hasSuffix("/journal-1.jsonl")
    }
    if compacts {
      try? JournaledStore<Numbers, Void>.writeSnapshot(
        state, at: sequence, directory: "/store", system: base)
      try base.unlink(path)
    }
    return try base.open(path, flags: flags, mode: mode)
  }
}

/// A read without the lock while another process compacts the journal.
///
/// What these tests catch:
/// - a listed segment that vanished read as an empty one (an old, even empty, state with no
///   damage) → `compactedWhileListed`.
@MainActor
@Suite("A read while another process compacts")
struct CompactionDuringReadTests {
  @Test("a segment removed between the listing and its open: the read starts again and sees all")
  func compactedWhileListed() async throws {
    let disk = SimulatedDisk()
    let journaled = try await JournaledStore.openNumbers(on: disk, options: .readingByHand())
    for value in 1...3 { journaled.store.dispatch(Append(value: value)) }
    try await journaled.close()

    let calls = CompactingBeforeOpen(disk, state: numbers(upTo: 3), sequence: 3)
    let read = try await JournaledStore.readNumbers(on: calls)

    #expect(read.damage == nil)
    #expect(read.state == numbers(upTo: 3))
    #expect(read.lastSequence == 3)
  }
}
