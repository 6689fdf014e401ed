import Foundation
import StateStore
import Synchronization
import Testing

@testable import StatePersistence

/// An object whose deinitializer runs the application's code: here, a read of the journaled
/// store's status, which takes the writer's lock.
private final class StatusReadingSentinel: Sendable {
  let onDeinit: @Sendable () -> Void

  init(onDeinit: @escaping @Sendable () -> Void) {
    self.onDeinit = onDeinit
  }

  deinit { onDeinit() }
}

/// An updater that holds the sentinel, so that releasing the updater runs the sentinel's
/// deinitializer.
private struct SentinelUpdater: StateUpdater {
  let sentinel: StatusReadingSentinel

  func updateState(_ state: inout Numbers) {}
}

/// The writer forgets entries inside its locks; the application's deinitializers must run
/// after them, or one that reads the store (legal code) waits for a lock its own thread holds.
// A backstop against a hang, as generous as the SideEffects suites' (see the comment in
// `Tests/SideEffectsTests/Support/Fixtures.swift`): on the main actor, these tests wait behind
// the todo app's fault sweep, which under ThreadSanitizer on a loaded machine kept them
// waiting for over a minute with nothing stuck.
@MainActor
@Suite("The writer releases the application's values outside its locks", .timeLimit(.minutes(5)))
struct ReleaseOutsideLocksTests {
  @Test(
    "an updater taken back while it waits for the writer is released after the writer's locks, so its deinitializer can read the status"
  )
  func discardReleasesTakenUpdatersOutsideTheLocks() async throws {
    let disk = SimulatedDisk()
    let journaled = try await JournaledStore.openNumbers(on: disk)
    let writer = journaled._writer
    let statusSeen = Mutex<PersistenceStatus?>(nil)
    do {
      let sentinel = StatusReadingSentinel { [writer] in
        let status = writer.status
        statusSeen.withLock { $0 = status }
      }
      // The state `discard` exists for: an entry handed to the writer, not yet taken by a
      // drain (marked scheduled so that none starts), when the store takes it back.
      writer._shared.withLock { shared in
        shared._pending.append([
          _PendingEntry(
            updater: SentinelUpdater(sentinel: sentinel), cause: nil, number: 1, extras: nil)
        ])
        shared._isScheduled = true
      }
    }
    #expect(statusSeen.withLock { $0 } == nil, "the writer still holds the updater")

    await writer.discard(1..<2)

    #expect(statusSeen.withLock { $0 } == .saved, "released once forgotten, outside the locks")
    #expect(writer._shared.withLock { $0._pending.isEmpty })
    writer._shared.withLock { $0._isScheduled = false }
    try await journaled.close()
  }
}
