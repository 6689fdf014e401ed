import Foundation
import PersistenceTestSupport
import StateStore
import Testing

@testable import StatePersistence

/// Every call of every kind in the workload fails, once and for good, at every point it is
/// made; each run checks the contract.
@MainActor
@Suite("Fault sweep")
struct FaultSweepTests {
  @Test(
    "every call failing at every point keeps the journal a readable prefix, and flushed entries durable",
    arguments: SystemCallKind.allCases, [false, true])
  func sweep(kind: SystemCallKind, persistent: Bool) async {
    let dryDisk = SimulatedDisk()
    await Workload.prepare(dryDisk)
    let dryRun = FaultyCalls(dryDisk)
    let clean = await Workload.run(on: dryRun, checking: nil)
    #expect(clean.errors.isEmpty)
    #expect(clean.confirmed == 15)
    let points = dryRun.calls[kind] ?? 0
    for occurrence in 1...max(1, points) {
      let disk = SimulatedDisk()
      await Workload.prepare(disk)
      let fault = FaultyCalls.Fault(
        kind: kind, occurrence: occurrence, code: EIO, persistent: persistent)
      let calls = FaultyCalls(disk, fault: fault)
      let outcome = await Workload.run(on: calls, checking: disk)
      guard points > 0 else {
        #expect(calls.injected == 0)
        continue
      }
      // Group commit may batch differently from run to run, so a late point may not be
      // reached; every point the dry run reached before the last write must be.
      if calls.injected == 0 {
        #expect(occurrence > (calls.calls[kind] ?? 0), "\(fault) never happened")
        continue
      }
      for error in outcome.errors {
        if case .systemCall(_, _, let code) = error { #expect(code == EIO, "\(fault): \(error)") }
      }
      // Reopening without faults: no damage, a prefix holding every confirmed append, and
      // everything when the workload ended with a successful close.
      do {
        let reopened = try await JournaledStore.openNumbers(on: disk)
        let count = reopened.store.state.items.count
        #expect(reopened.store.state == numbers(upTo: count), "\(fault)")
        #expect(count >= outcome.confirmed, "\(fault)")
        #expect(count <= outcome.applied, "\(fault)")
        if outcome.closed { #expect(count == outcome.applied, "\(fault)") }
        try await reopened.close()
      } catch {
        Issue.record("\(fault): reopening failed: \(error)")
      }
    }
  }
}
