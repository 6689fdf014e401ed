import PersistenceTestSupport
import StateStore
import Synchronization
import Testing

@testable import StatePersistence

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// `JournalOptions.onLockWait`: a long wait for another process's lock is announced once.
@MainActor
@Suite("Lock waits")
struct LockWaitTests {
  /// A lock that another process holds for the next `busyTries` non-blocking tries; the pauses
  /// between tries are counted, not slept.
  final class BusyLock: ForwardingCalls {
    let base: any SystemCalls
    private let state = Mutex((busyTries: 0, paused: 0, blocked: false))

    init(_ base: any SystemCalls) { self.base = base }

    /// The lock is busy for the next `tries` tries that do not block; the counts start over.
    func hold(forTries tries: Int) {
      state.withLock { $0 = (tries, 0, false) }
    }

    var paused: Int { state.withLock { $0.paused } }
    var blocked: Bool { state.withLock { $0.blocked } }

    func lock(_ descriptor: Int32, operation: Int32) throws(SystemCallFailure) {
      if operation != LOCK_UN {
        let busy = state.withLock { state in
          if operation & LOCK_NB == 0 { state.blocked = true }
          guard operation & LOCK_NB != 0, state.busyTries > 0 else { return false }
          state.busyTries -= 1
          return true
        }
        if busy { throw SystemCallFailure(.lock, code: EWOULDBLOCK) }
      }
      try base.lock(descriptor, operation: operation)
    }

    func pause(microseconds: Int) { state.withLock { $0.paused += microseconds } }
  }

  @Test(
    "a lock held for about a second is announced once with the directory, then waited for; a short wait is quiet"
  )
  func announcedOnce() async throws {
    let busy = BusyLock(SimulatedDisk())
    let notices = Mutex<[String]>([])
    var options = JournalOptions.readingByHand()
    options.onLockWait = { directory in notices.withLock { $0.append(directory) } }
    let journaled = try await JournaledStore.openNumbers(on: busy, options: options)
    #expect(notices.withLock { $0 }.isEmpty)

    busy.hold(forTries: 1_000)
    journaled.store.dispatch(Append(value: 1))
    try await journaled.flush()
    #expect(notices.withLock { $0 } == ["/store"])
    #expect(busy.blocked)
    #expect((1_000_000...1_100_000).contains(busy.paused))

    busy.hold(forTries: 8)
    try await journaled.withExclusiveAccess { journaled.store.dispatch(Append(value: 2)) }
    #expect(notices.withLock { $0 } == ["/store"])
    #expect(!busy.blocked)
    #expect(busy.paused > 0 && busy.paused < 1_000_000)
    try await journaled.close()
    #expect(try await JournaledStore.readNumbers(on: busy.base).state == numbers(upTo: 2))
  }
}
