import Foundation
import PersistenceTestSupport
import StateStore
import Synchronization
import Testing

@testable import StatePersistence

/// The journal's numbering near its end: no entry number that a reader refuses is ever
/// written, whichever store appends it.
///
/// What these tests catch:
/// - the writer's limit checked as `<= Int.max` (a last entry numbered `Int.max`) →
///   `twoStoresAtTheEnd`.
@MainActor
@Suite("Numbering near Int.max")
struct NumberingTests {
  @Test(
    "two stores near the end: the one that would write entry Int.max fails its flush, and the directory still opens"
  )
  func twoStoresAtTheEnd() async throws {
    let disk = SimulatedDisk()
    try disk.makeDirectory("/store", mode: 0o700)
    try JournaledStore<Numbers, Void>.writeSnapshot(
      Numbers(), at: Int.max - 3, directory: "/store", system: disk)
    let first = try await JournaledStore.openNumbers(on: disk, options: .readingByHand())
    let second = try await JournaledStore.openNumbers(on: disk, options: .readingByHand())

    first.store.dispatch(Append(value: 1))
    first.store.dispatch(Append(value: 2))
    try await first.flush()
    #expect(first.durableSequence == Int.max - 1)

    // Its own view says there is room: the journal, read under the lock, says there is none.
    second.store.dispatch(Append(value: 3))
    await #expect(throws: PersistenceError.self) { try await second.flush() }
    #expect(second.status != .saved)
    try await first.close()
    try? await second.close()

    let read = try await JournaledStore.readNumbers(on: disk)
    #expect(read.damage == nil)
    #expect(read.lastSequence == Int.max - 1)
    #expect(read.state.items == [1, 2])
    let reopened = try await JournaledStore.openNumbers(on: disk, options: .readingByHand())
    #expect(reopened.store.state.items == [1, 2])
    try await reopened.close()
  }
}

/// Calls whose `fsync` of the directory right after a snapshot's rename fails, once.
private final class SnapshotDirectorySyncFailing: ForwardingCalls {
  let base: any SystemCalls
  private let armed = Mutex(false)

  init(_ base: any SystemCalls) {
    self.base = base
  }

  func rename(_ from: String, to: String) throws(SystemCallFailure) {
    try base.rename(from, to: to)
    if to.hasSuffix("/snapshot.json") { armed.withLock { $0 = true } }
  }

  func synchronize(_ descriptor: Int32) throws(SystemCallFailure) {
    let fails = armed.withLock { armed in
      defer { armed = false }
      return armed
    }
    if fails { throw SystemCallFailure(.synchronize, code: EIO) }
    try base.synchronize(descriptor)
  }
}

/// A snapshot whose rename is done counts as taken, even when the directory's `fsync` fails.
///
/// What these tests catch:
/// - the writer going on appending to the segment the snapshot covers part of when the
///   directory's `fsync` fails → `renamedSnapshotStartsASegment`.
@MainActor
@Suite("A snapshot renamed into place")
struct RenamedSnapshotTests {
  @Test(
    "the directory's fsync fails after the rename: the next entry starts a new segment, the covered one is kept, and a reboot reads every entry"
  )
  func renamedSnapshotStartsASegment() async throws {
    let disk = SimulatedDisk()
    let calls = SnapshotDirectorySyncFailing(disk)
    let journaled = try await JournaledStore.openNumbers(
      on: calls, options: .readingByHand(snapshotInterval: 2))
    for value in 1...3 {
      journaled.store.dispatch(Append(value: value))
      try await journaled.flush()
    }
    // The third entry carried the snapshot; its directory's fsync failed.
    var failures = journaled.failures.makeAsyncIterator()
    #expect(await failures.next() == .systemCall(operation: "sync", path: "/store", code: EIO))
    journaled.store.dispatch(Append(value: 4))
    try await journaled.flush()
    try await journaled.close()

    let names = try disk.contentsOfDirectory("/store")
    #expect(names.contains("journal-4.jsonl"), "the entry after the snapshot starts a segment")
    #expect(names.contains("journal-1.jsonl"), "the covered segment stays: the rename may be lost")
    for seed in UInt64(0)..<8 {
      let rebooted = disk.afterPowerCut(seed: seed)
      let read = try await JournaledStore.readNumbers(on: rebooted)
      #expect(read.damage == nil, "seed \(seed)")
      #expect(read.state == numbers(upTo: 4), "seed \(seed)")
    }
  }
}
