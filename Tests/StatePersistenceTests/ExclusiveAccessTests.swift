import Foundation
import PersistenceTestSupport
import StateStore
import Testing

@testable import StatePersistence

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// `withExclusiveAccess(_:)`: a change decided on the latest state of every process, on a real
/// directory, whose `flock` is the operating system's.
@MainActor
@Suite("Exclusive access")
struct ExclusiveAccessTests {
  /// A new directory under the temporary one, removed by the caller.
  static func makeDirectory() -> URL {
    FileManager.default.temporaryDirectory
      .appendingPathComponent("persist-exclusive-\(UUID().uuidString)")
  }

  /// Whether another open of the directory's lock file could take the exclusive lock now.
  static func lockIsFree(in directory: URL) throws -> Bool {
    let descriptor = open(directory.path + "/lock", O_RDWR)
    try #require(descriptor >= 0)
    defer { close(descriptor) }
    return flock(descriptor, LOCK_EX | LOCK_NB) == 0
  }

  /// Appends the number after the largest one the store holds, under the exclusive lock.
  static func appendNext(to journaled: JournaledStore<Numbers, Void>) async throws {
    try await journaled.withExclusiveAccess {
      journaled.store.dispatch(Append(value: (journaled.store.state.items.max() ?? 0) + 1))
    }
  }

  @Test(
    "two stores numbering each value after the largest one, at once on one directory, never take the same number"
  )
  func numberingAcrossProcesses() async throws {
    let directory = Self.makeDirectory()
    defer { try? FileManager.default.removeItem(at: directory) }
    let options = JournalOptions.readingByHand(snapshotInterval: 25)
    let first = try await JournaledStore.open(
      directory: directory, registry: numbersRegistry(), options: options)
    let second = try await JournaledStore.open(
      directory: directory, registry: numbersRegistry(), options: options)
    let one = Task { for _ in 1...60 { try await Self.appendNext(to: first) } }
    let other = Task { for _ in 1...60 { try await Self.appendNext(to: second) } }
    try await one.value
    try await other.value
    let journal = try await JournaledStore.read(directory: directory, registry: numbersRegistry())
    #expect(journal.damage == nil)
    #expect(journal.state.items == Array(1...120))
    try await first.catchUp()
    #expect(first.store.state.items == Array(1...120))
    try await first.close()
    try await second.close()
  }

  @Test("the lock is held while the body runs, and released once its change is durable")
  func holdsTheLockForTheBody() async throws {
    let directory = Self.makeDirectory()
    defer { try? FileManager.default.removeItem(at: directory) }
    let journaled = try await JournaledStore.open(
      directory: directory, registry: numbersRegistry(), options: .readingByHand())
    let heldInside = try await journaled.withExclusiveAccess {
      journaled.store.dispatch(Append(value: 1))
      return try !Self.lockIsFree(in: directory)
    }
    #expect(heldInside)
    #expect(try Self.lockIsFree(in: directory))
    #expect(journaled.durableSequence == 1)
    #expect(journaled.status == .saved)
    try await journaled.close()
  }

  @Test(
    "a failed write inside throws, takes the change back, releases the lock and leaves the journal as it was"
  )
  func failedWriteTakesTheChangeBack() async throws {
    let directory = Self.makeDirectory()
    defer { try? FileManager.default.removeItem(at: directory) }
    // Persistent until the failure is seen: a fault of one call could be retried away by the
    // flush inside, if the writer's first try failed before the flush waited for it.
    let calls = FaultyCalls(
      POSIXCalls(), fault: .init(kind: .write, occurrence: 1, code: EIO, persistent: true))
    let failing = try await JournaledStore.open(
      directory: directory.path, dependencies: (), registry: numbersRegistry(),
      options: .readingByHand(), system: calls)
    failing.store.onUnhandledError = { _, _ in }
    let working = try await JournaledStore.open(
      directory: directory, registry: numbersRegistry(), options: .readingByHand())
    var states: [[Int]] = []
    let token = failing.store.addListener { _, new in states.append(new.items) }
    let error = await #expect(throws: PersistenceError.self) {
      try await Self.appendNext(to: failing)
    }
    guard case .systemCall("write", _, EIO)? = error else {
      Issue.record("expected the failed write, got \(String(describing: error))")
      return
    }
    calls.inject(nil)
    #expect(calls.injected >= 1)
    #expect(try Self.lockIsFree(in: directory))
    #expect(states == [[1], []])
    #expect(failing.store.state == numbers(upTo: 0))
    #expect(failing.lastSequence == 0)
    #expect(failing.status == .saved)
    // The disk works again: the change taken back is never written, even by a later flush.
    try await failing.flush()
    #expect(
      try await JournaledStore.read(directory: directory, registry: numbersRegistry()).state
        == numbers(upTo: 0))

    try await Self.appendNext(to: working)
    try await Self.appendNext(to: failing)
    let journal = try await JournaledStore.read(directory: directory, registry: numbersRegistry())
    #expect(journal.state.items == [1, 2])
    #expect(failing.store.state.items == [1, 2])
    token.cancel()
    try await failing.close()
    try await working.close()
  }

  @Test("an error the body throws is rethrown after what it dispatched is durable")
  func bodyErrorAfterFlush() async throws {
    struct Refused: Error {}
    let directory = Self.makeDirectory()
    defer { try? FileManager.default.removeItem(at: directory) }
    let journaled = try await JournaledStore.open(
      directory: directory, registry: numbersRegistry(), options: .readingByHand())
    await #expect(throws: Refused.self) {
      try await journaled.withExclusiveAccess {
        journaled.store.dispatch(Append(value: 1))
        throw Refused()
      }
    }
    #expect(journaled.durableSequence == 1)
    #expect(try Self.lockIsFree(in: directory))
    try await journaled.close()
  }
}
