import StatePersistence
import StateStore
import Testing

/// A workload of appends, flushed in groups, on a journal that takes a snapshot every three
/// entries, opened from a store that already has a snapshot, a segment and a torn tail: every
/// kind of call happens in it (reading and recovering, append, cutting the tail, snapshot,
/// removal, close).
@MainActor
struct Workload {
  /// The values ``prepare(_:)`` stores before the workload: 1 to 5.
  static let prepared = 5
  /// The values appended, in groups; each group ends with a flush.
  static let groups = [[6, 7], [8], [9, 10, 11], [12], [13, 14, 15]]
  static let options = JournalOptions(snapshotInterval: 3)

  /// Stores 1 to 5 on `disk` without faults (a snapshot after 4, entry 5 in `journal-5.jsonl`)
  /// and leaves a torn line after them.
  static func prepare(_ disk: SimulatedDisk) async {
    do {
      let journaled = try await JournaledStore.openNumbers(on: disk, options: options)
      for value in 1...prepared {
        journaled.store.dispatch(Append(value: value))
        try await journaled.flush()
      }
      try await journaled.close()
    } catch {
      Issue.record("preparing the store failed: \(error)")
    }
    let path = "/store/journal-5.jsonl"
    #expect(disk.data(at: path) != nil)
    disk.setData((disk.data(at: path) ?? []) + Array(#"{"seq":6,"ty"#.utf8), at: path)
  }

  /// What happened.
  struct Outcome {
    /// How many appends the store applied.
    var applied = 0
    /// How many appends a flush that returned said were durable.
    var confirmed = 0
    /// Every error thrown, by open, flush or close.
    var errors: [PersistenceError] = []
    /// Whether close returned without throwing.
    var closed = false
  }

  /// Runs the workload on `system`; after every failed flush, checks on `disk` (read without
  /// faults) that what is durable is exactly what the store says is durable.
  static func run(on system: any SystemCalls, checking disk: SimulatedDisk?) async -> Outcome {
    var outcome = Outcome(applied: prepared, confirmed: prepared)
    let journaled: JournaledStore<Numbers, Void>
    do {
      journaled = try await JournaledStore.openNumbers(on: system, options: options)
    } catch {
      outcome.errors.append(error)
      return outcome
    }
    for group in groups {
      for value in group {
        journaled.store.dispatch(Append(value: value))
        outcome.applied = value
      }
      do {
        try await journaled.flush()
        outcome.confirmed = outcome.applied
      } catch {
        outcome.errors.append(error)
        #expect(journaled.store.state == numbers(upTo: outcome.applied))
        if let disk { await expectDurable(journaled.durableSequence, on: disk) }
      }
    }
    do {
      try await journaled.close()
      outcome.closed = true
    } catch {
      outcome.errors.append(error)
    }
    return outcome
  }

  /// Expects `disk` to read, without damage, exactly the first `count` appends.
  static func expectDurable(_ count: Int, on disk: SimulatedDisk) async {
    do {
      let recovered = try await JournaledStore.readNumbers(on: disk)
      #expect(recovered.damage == nil)
      #expect(recovered.lastSequence == count)
      #expect(recovered.state == numbers(upTo: count))
    } catch {
      Issue.record("reading the durable prefix failed: \(error)")
    }
  }
}
