import Foundation
import PersistenceTestSupport
import StateStore
import Testing

@testable import StatePersistence

/// The fault sweep of reading what another process appended: every call of every kind fails,
/// once or for good, at every point of a store's reload, while reading and before appending;
/// each run checks the contract.
@MainActor
@Suite("Fault sweep: the other process's reload")
struct ReloadFaultSweepTests {
  /// What the store does when the other process's entries are waiting for it.
  enum Phase: String, CaseIterable, Sendable, CustomStringConvertible {
    /// `catchUp()`: the journal is read under the shared lock.
    case reading
    /// An updater dispatched and flushed: the journal is read under the exclusive lock, its
    /// torn tail cut, then the updater appended after the other's entries.
    case appending

    var description: String { rawValue }
  }

  /// How many entries the other process wrote.
  static let written = 11

  /// The other process wrote 1 to 5, which the store read, then 6 to 11, compacting the
  /// journal past what the store read (snapshots after 4 and 8), and died writing 12 (a torn
  /// tail).
  static func prepare(_ disk: SimulatedDisk, calls: FaultyCalls) async throws
    -> JournaledStore<Numbers, Void>
  {
    let options = JournalOptions.readingByHand(snapshotInterval: 3)
    let other = try await JournaledStore.openNumbers(on: disk, options: options)
    for value in 1...5 {
      other.store.dispatch(Append(value: value))
      try await other.flush()
    }
    let store = try await JournaledStore.openNumbers(on: calls, options: options)
    for value in 6...written {
      other.store.dispatch(Append(value: value))
      try await other.flush()
    }
    try await other.close()
    let last = try #require(
      try disk.contentsOfDirectory("/store").compactMap(JournalLayout.segmentStart).max())
    let path = "/store/journal-\(last).jsonl"
    disk.setData((disk.data(at: path) ?? []) + Array(#"{"seq":12,"ty"#.utf8), at: path)
    return store
  }

  /// Runs `phase` on `store`, returning the error it threw.
  static func run(_ phase: Phase, on store: JournaledStore<Numbers, Void>) async
    -> PersistenceError?
  {
    do {
      switch phase {
      case .reading:
        try await store.catchUp()
      case .appending:
        store.store.dispatch(Append(value: written + 1))
        try await store.flush()
      }
      return nil
    } catch {
      return error
    }
  }

  @Test(
    "every call of a reload failing at every point: the failure is reported, the state a prefix in journal order, nothing lost on disk, and the next try succeeds",
    arguments: SystemCallKind.allCases, Phase.allCases)
  func sweep(kind: SystemCallKind, phase: Phase) async throws {
    let dryDisk = SimulatedDisk()
    let dryRun = FaultyCalls(dryDisk)
    let dryStore = try await Self.prepare(dryDisk, calls: dryRun)
    let before = dryRun.calls[kind] ?? 0
    #expect(await Self.run(phase, on: dryStore) == nil)
    #expect(dryStore.store.state == numbers(upTo: Self.written + (phase == .appending ? 1 : 0)))
    let points = (dryRun.calls[kind] ?? 0) - before
    guard points > 0 else { return }
    var injected = 0
    for occurrence in before + 1...before + points {
      for persistent in [false, true] {
        let fault = FaultyCalls.Fault(
          kind: kind, occurrence: occurrence, code: EIO, persistent: persistent)
        if try await sweepPoint(phase, fault) { injected += 1 }
      }
    }
    // The last of the dry run's calls may not come again: when the store hands its batch over
    // (at the end of its actor's job, or in the flush) depends on scheduling, and with it how
    // often the lock is taken. Every point but such a last one is injected.
    #expect(injected >= 2 * (points - 1), "the sweep injected \(injected) of \(2 * points) faults")
  }

  /// Runs `phase` with `fault` injected and checks the contract; returns whether the fault
  /// happened (a run that met no fault must have succeeded, and is checked all the same).
  private func sweepPoint(_ phase: Phase, _ fault: FaultyCalls.Fault) async throws -> Bool {
    let disk = SimulatedDisk()
    let calls = FaultyCalls(disk)
    let store = try await Self.prepare(disk, calls: calls)
    calls.inject(fault)
    let error = await Self.run(phase, on: store)
    let happened = calls.injected > 0
    if !happened {
      #expect(error == nil, "\(fault) never happened, yet: \(String(describing: error))")
    }
    if let error {
      switch error {
      case .systemCall(_, _, let code): #expect(code == EIO, "\(fault): \(error)")
      case .uncertain: #expect(phase == .appending, "\(fault): \(error)")
      default: Issue.record("\(fault): \(error)")
      }
    }
    // The state is the journal's up to where the store read, in journal order, then its own.
    let items = store.store.state.items
    switch phase {
    case .reading:
      #expect(items == numbers(upTo: error == nil ? Self.written : 5).items, "\(fault)")
    case .appending:
      let rebased = numbers(upTo: Self.written + 1).items
      let unheard = numbers(upTo: 5).items + [Self.written + 1]
      #expect(items == rebased || items == unheard, "\(fault)")
    }
    // Nothing the other process wrote is lost, and the journal reads without damage.
    let onDisk = try await JournaledStore.readNumbers(on: disk)
    #expect(onDisk.damage == nil, "\(fault)")
    #expect(onDisk.lastSequence >= Self.written, "\(fault)")
    #expect(onDisk.state == numbers(upTo: onDisk.lastSequence), "\(fault)")
    // Once the disk works again, the store catches up and writes what it holds.
    calls.inject(nil)
    try await store.flush()
    try await store.catchUp()
    let expected = numbers(upTo: Self.written + (phase == .appending ? 1 : 0))
    #expect(store.store.state == expected, "\(fault)")
    try await store.close()
    let reopened = try await JournaledStore.readNumbers(on: disk)
    #expect(reopened.damage == nil, "\(fault)")
    #expect(reopened.state == expected, "\(fault)")
    return happened
  }
}
