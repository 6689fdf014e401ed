import StateStore
import Testing

@testable import StatePersistence

/// The power is cut at every call of the workload; a reboot keeps what was synchronized and,
/// chosen at random, some of what was not: each directory operation not yet synchronized is
/// kept or lost on its own.
///
/// What these tests catch:
/// - the directory's `fsync` after a snapshot's rename dropped (the covered segments' removal
///   can then survive without the rename) → `cutAtEveryCall`;
/// - a new segment's directory entry not synchronized before its entries count as durable →
///   `cutAtEveryCall`.
@MainActor
@Suite("Power cuts")
struct PowerCutTests {
  @Test(
    "after a power cut at any call, reopening gives a prefix holding every flushed entry, and writing goes on"
  )
  func cutAtEveryCall() async throws {
    var cut = 1
    var cutsTested = 0
    while true {
      let disk = SimulatedDisk()
      await Workload.prepare(disk)
      disk.cutPower(afterCalls: cut)
      let outcome = await Workload.run(on: disk, checking: nil)
      guard disk.isPowerCut else { break }
      cutsTested += 1
      for variant in 0..<4 {
        let seed = UInt64(cut) &* 31 &+ UInt64(variant)
        let rebooted = disk.afterPowerCut(seed: seed)
        let place = "power cut after call \(cut), seed \(seed)"
        do {
          let recovered = try await JournaledStore.readNumbers(on: rebooted)
          #expect(recovered.damage == nil, "\(place)")
          let reopened = try await JournaledStore.openNumbers(on: rebooted)
          let count = reopened.store.state.items.count
          #expect(reopened.store.state == numbers(upTo: count), "\(place)")
          #expect(count >= outcome.confirmed, "\(place)")
          #expect(count <= outcome.applied, "\(place)")
          reopened.store.dispatch(Append(value: count + 1))
          try await reopened.close()
          let again = try await JournaledStore.openNumbers(on: rebooted)
          #expect(again.store.state == numbers(upTo: count + 1), "\(place)")
          try await again.close()
        } catch {
          Issue.record("\(place): \(error)")
        }
      }
      cut += 1
    }
    #expect(cutsTested > 50)
  }
}
