// What these tests catch (changes to the library that must turn them red):
// - The store's own append to its journal tape (`_JournalTape._append`, StateStore) setting the
//   flush target one short (`_flushTarget = _journaledCount - 1`), so that a flush returns
//   before the last updater is durable → `flushWaitsForTheLastInlineUpdater`.

import PersistenceTestSupport
import StatePersistence
import StateStore
import Synchronization
import Testing

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// Calls whose writes fail with `EIO` from the first one that carries `marker` on, until
/// ``heal()``: a disk that breaks once, at a chosen entry, whatever else the writer does first.
private final class FailingFromMarker: ForwardingCalls {
  let base: any SystemCalls
  private let marker: [UInt8]
  /// Where the disk stands: intact until a write carries the marker, then broken until healed.
  private let phase = Mutex(Phase.intact)

  private enum Phase { case intact, broken, healed }

  init(_ base: any SystemCalls, marker: String) {
    self.base = base
    self.marker = Array(marker.utf8)
  }

  /// Lets every write through from now on.
  func heal() {
    phase.withLock { $0 = .healed }
  }

  func write(_ descriptor: Int32, _ bytes: UnsafeRawBufferPointer, at offset: Int)
    throws(SystemCallFailure) -> Int
  {
    let carries = contains(bytes)
    let fails = phase.withLock { phase in
      if carries, phase == .intact { phase = .broken }
      return phase == .broken
    }
    if fails { throw SystemCallFailure(.write, code: EIO) }
    return try base.write(descriptor, bytes, at: offset)
  }

  private func contains(_ bytes: UnsafeRawBufferPointer) -> Bool {
    guard bytes.count >= marker.count else { return false }
    for start in 0...(bytes.count - marker.count)
    where bytes[start..<(start + marker.count)].elementsEqual(marker) {
      return true
    }
    return false
  }
}

@MainActor
@Suite("Flush")
struct FlushTests {
  @Test(
    "a flush returns only once the last updater the store appended itself is durable, or throws"
  )
  func flushWaitsForTheLastInlineUpdater() async throws {
    let disk = SimulatedDisk()
    // The last updater's line is the first write that carries its payload.
    let calls = FailingFromMarker(disk, marker: #""payload":{"value":3}"#)
    let journaled = try await JournaledStore.openNumbers(
      on: calls, options: .readingByHand(snapshotInterval: 1))
    journaled.store.dispatch(Append(value: 1))
    try await journaled.flush()
    // The writer now wants a snapshot after every entry: the next updater carries the state,
    // and the writer makes it durable, and says so, before it writes the one after it. That one
    // the store appends itself, in the same job, to the batch the first one opened.
    journaled.store.dispatch(Append(value: 2))
    journaled.store.dispatch(Append(value: 3))
    #expect(journaled.store.state == numbers(upTo: 3))
    // The disk fails from the third entry's write on: the flush must say so, never return with
    // that entry unwritten. Whether the writer tries the entry before the flush waits or
    // again for it, the write fails, so the flush fails either way.
    await #expect(throws: PersistenceError.self) { try await journaled.flush() }
    #expect(journaled.durableSequence == 2)
    #expect(try await JournaledStore.readNumbers(on: disk).state == numbers(upTo: 2))

    // Once the disk heals, the next flush writes it and returns with every updater durable.
    calls.heal()
    try await journaled.flush()
    #expect(journaled.durableSequence == 3)
    #expect(journaled.status == .saved)
    #expect(try await JournaledStore.readNumbers(on: disk).state == numbers(upTo: 3))
    try await journaled.close()
  }
}
