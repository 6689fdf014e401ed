import Foundation
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

/// Calls whose `fsync` and `ftruncate` fail while told to, both at once: how an append is left in
/// doubt, its bytes on disk and its cut failing.
private final class SyncAndCutFailing: ForwardingCalls {
  let base: any SystemCalls
  private let failing = Mutex(false)

  init(_ base: any SystemCalls) {
    self.base = base
  }

  /// Whether every `fsync` and `ftruncate` fails with `EIO`.
  var fails: Bool {
    get { failing.withLock { $0 } }
    set { failing.withLock { $0 = newValue } }
  }

  func synchronize(_ descriptor: Int32) throws(SystemCallFailure) {
    if fails { throw SystemCallFailure(.synchronize, code: EIO) }
    try base.synchronize(descriptor)
  }

  func truncate(_ descriptor: Int32, to length: Int) throws(SystemCallFailure) {
    if fails { throw SystemCallFailure(.truncate, code: EIO) }
    try base.truncate(descriptor, to: length)
  }
}

/// Calls whose next `count` `fsync`s fail with `EIO` once armed, and nothing else: an append's
/// `fsync` fails, its cut succeeds, and the cut's own `fsync` fails.
private final class SyncsFailing: ForwardingCalls {
  let base: any SystemCalls
  private let remaining = Mutex(0)

  init(_ base: any SystemCalls) {
    self.base = base
  }

  /// Makes the next `count` `fsync`s fail.
  func failNextSynchronizations(_ count: Int) {
    remaining.withLock { $0 = count }
  }

  func synchronize(_ descriptor: Int32) throws(SystemCallFailure) {
    let fails = remaining.withLock { remaining -> Bool in
      guard remaining > 0 else { return false }
      remaining -= 1
      return true
    }
    if fails { throw SystemCallFailure(.synchronize, code: EIO) }
    try base.synchronize(descriptor)
  }
}

/// Appends whose failure leaves them in doubt.
///
/// What these tests catch:
/// - `try?` on the `fsync` after a failed append is cut back (the cut reported as durable) →
///   `rollbackSynchronizationFails`;
/// - the settling of an append in doubt reported as a failure that changed nothing →
///   `settlingThatFails`.
@MainActor
@Suite("An append in doubt")
struct UncertainAppendTests {
  @Test(
    "an append whose fsync fails and whose cut's fsync fails too is uncertain; after a power cut the journal reads as a prefix"
  )
  func rollbackSynchronizationFails() async throws {
    for seed in UInt64(0)..<16 {
      let disk = SimulatedDisk()
      let calls = SyncsFailing(disk)
      let journaled = try await JournaledStore.openNumbers(on: calls, options: .readingByHand())
      journaled.store.dispatch(Append(value: 1))
      try await journaled.flush()
      // The append's fsync, then the fsync of its cut.
      calls.failNextSynchronizations(2)
      journaled.store.dispatch(Append(value: 2))
      var failures = journaled.failures.makeAsyncIterator()
      let failure = await failures.next()
      guard case .uncertain? = failure else {
        Issue.record("seed \(seed): not reported uncertain: \(String(describing: failure))")
        return
      }
      // The power goes before anything else reaches the disk.
      disk.cutPower(afterCalls: 0)
      let rebooted = disk.afterPowerCut(seed: seed)
      let recovered = try await JournaledStore.readNumbers(on: rebooted)
      #expect(recovered.damage == nil, "seed \(seed)")
      #expect(
        recovered.state == numbers(upTo: 1) || recovered.state == numbers(upTo: 2),
        "seed \(seed): \(recovered.state.items)")
      let reopened = try await JournaledStore.openNumbers(on: rebooted, options: .readingByHand())
      let count = reopened.store.state.items.count
      reopened.store.dispatch(Append(value: count + 1))
      try await reopened.close()
      #expect(try await JournaledStore.readNumbers(on: rebooted).state == numbers(upTo: count + 1))
    }
  }

  @Test(
    "stays in doubt when the flush that settles it fails: the flush says uncertain, and the entry is kept and written once"
  )
  func settlingThatFails() async throws {
    let disk = SimulatedDisk()
    let calls = SyncAndCutFailing(disk)
    let journaled = try await JournaledStore.openNumbers(on: calls, options: .readingByHand())
    journaled.store.dispatch(Append(value: 1))
    try await journaled.flush()
    calls.fails = true
    // Written without a flush waiting: the append's fsync fails, and so does cutting it back,
    // so its bytes stay in the file, durable or not.
    journaled.store.dispatch(Append(value: 2))
    var failures = journaled.failures.makeAsyncIterator()
    let first = await failures.next()
    guard case .uncertain? = first else {
      Issue.record("the append was not left in doubt: \(String(describing: first))")
      return
    }
    // The flush settles it under the exclusive lock; its fsync fails too. That failure must
    // not read as one that changed nothing.
    await #expect {
      try await journaled.flush()
    } throws: { error in
      guard let error = error as? PersistenceError, case .uncertain = error else { return false }
      return true
    }
    #expect(journaled.store.state == numbers(upTo: 2), "the change in doubt is kept")
    calls.fails = false
    try await journaled.flush()
    try await journaled.close()
    let reopened = try await JournaledStore.readNumbers(on: disk)
    #expect(reopened.state == numbers(upTo: 2), "written once, in order")
    #expect(reopened.damage == nil)
  }
}
