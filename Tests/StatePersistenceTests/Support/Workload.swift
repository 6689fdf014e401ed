import StatePersistence
import StateStore
import Testing

/// A workload of appends, flushed in groups, on a journal that takes a snapshot every three
/// entries: every kind of call happens in it (open, append, snapshot, removal, close).
@MainActor
struct Workload {
  /// The values appended, in groups; each group ends with a flush.
  static let groups = [[1, 2], [3], [4, 5, 6], [7], [8, 9, 10]]
  static let options = JournalOptions(snapshotInterval: 3)

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
    var outcome = Outcome()
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
