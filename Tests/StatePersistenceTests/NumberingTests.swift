import Foundation
import StateStore
import Testing

@testable import StatePersistence

/// The journal's numbering near its end: no entry number that a reader refuses is ever
/// written, whichever store appends it.
///
/// What these tests catch:
/// - the writer's limit checked as `<= Int.max` (a last entry numbered `Int.max`) →
///   `twoStoresAtTheEnd`.
@MainActor
@Suite("Numbering near Int.max")
struct NumberingTests {
  @Test(
    "two stores near the end: the one that would write entry Int.max fails its flush, and the directory still opens"
  )
  func twoStoresAtTheEnd() async throws {
    let disk = SimulatedDisk()
    try disk.makeDirectory("/store", mode: 0o700)
    try JournaledStore<Numbers, Void>.writeSnapshot(
      Numbers(), at: Int.max - 3, directory: "/store", system: disk)
    let first = try await JournaledStore.openNumbers(on: disk, options: .readingByHand())
    let second = try await JournaledStore.openNumbers(on: disk, options: .readingByHand())

    first.store.dispatch(Append(value: 1))
    first.store.dispatch(Append(value: 2))
    try await first.flush()
    #expect(first.durableSequence == Int.max - 1)

    // Its own view says there is room: the journal, read under the lock, says there is none.
    second.store.dispatch(Append(value: 3))
    await #expect(throws: PersistenceError.self) { try await second.flush() }
    #expect(second.status != .saved)
    try await first.close()
    try? await second.close()

    let read = try await JournaledStore.readNumbers(on: disk)
    #expect(read.damage == nil)
    #expect(read.lastSequence == Int.max - 1)
    #expect(read.state.items == [1, 2])
    let reopened = try await JournaledStore.openNumbers(on: disk, options: .readingByHand())
    #expect(reopened.store.state.items == [1, 2])
    try await reopened.close()
  }
}
