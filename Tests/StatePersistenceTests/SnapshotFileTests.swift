import Foundation
import PersistenceTestSupport
import StateStore
import StateStoreTesting
import Synchronization
import Testing

@testable import StatePersistence

@MainActor
@Suite("Snapshot file")
struct SnapshotFileTests {
  static let path = "/settings.json"

  static func makeFile(
    on system: any SystemCalls, clock: TestClock, schemaVersion: Int = 1
  ) -> SnapshotFile<Settings> {
    SnapshotFile(
      path: path,
      options: .init(
        coalescingInterval: .milliseconds(500), retryInterval: .seconds(5),
        schemaVersion: schemaVersion, clock: clock),
      system: system)
  }

  @Test("a hundred changes within the coalescing interval are written once, the latest")
  func coalescing() async throws {
    let disk = SimulatedDisk()
    let calls = FaultyCalls(disk)
    let clock = TestClock()
    let file = Self.makeFile(on: calls, clock: clock)
    let store = Store<Settings, Void>(initialState: Settings())
    file.keepSaving(\.self, of: store)
    for index in 1...100 { store.dispatch(SetTheme(theme: "theme \(index)")) }
    #expect(file.status == .saving)
    await clock.waitForSleepers(1)
    #expect(disk.data(at: Self.path) == nil)

    await clock.advance(by: .milliseconds(500))
    try await file.flush()
    #expect(calls.calls[.rename] == 1)
    #expect(file.status == .saved)
    #expect(try file.load() == Settings(theme: "theme 100"))
  }

  @Test("changes within one interval are read and compared once, not at every dispatch")
  func comparedOnce() async throws {
    let disk = SimulatedDisk()
    let calls = FaultyCalls(disk)
    let file = SnapshotFile<Counted>(
      path: "/counted.json", options: .init(clock: TestClock()), system: calls)
    let store = Store<Counted, Void>(initialState: Counted())
    file.keepSaving(\.self, of: store)
    let before = Counted.comparisons.load(ordering: .relaxed)
    for _ in 1...1_000 { store.dispatch(IncrementCounted()) }
    #expect(Counted.comparisons.load(ordering: .relaxed) == before)
    try await file.flush()
    #expect(Counted.comparisons.load(ordering: .relaxed) <= before + 2)
    #expect(calls.calls[.rename] == 1)
    #expect(try file.load() == Counted(value: 1_000))
  }

  @Test("a slice of a larger state is saved as its own file, through a scope's dispatch too")
  func slice() async throws {
    let disk = SimulatedDisk()
    let clock = TestClock()
    let file = Self.makeFile(on: disk, clock: clock)
    let store = Store<Numbers, Void>(initialState: Numbers())
    file.keepSaving(\.settings, of: store)
    store.scope(state: \.settings).dispatch(SetTheme(theme: "dark"))
    store.dispatch(Append(value: 1))
    try await file.flush()
    #expect(try file.load() == Settings(theme: "dark"))
  }

  @Test("a failed save is reported, retried after the retry interval, and the value kept")
  func failedSave() async throws {
    let disk = SimulatedDisk()
    let calls = FaultyCalls(disk, fault: .init(kind: .rename, occurrence: 1, code: EIO))
    let clock = TestClock()
    let file = Self.makeFile(on: calls, clock: clock)
    file.save(Settings(theme: "dark"))
    await clock.waitForSleepers(1)
    await clock.advance(by: .milliseconds(500))

    var failures = file.failures.makeAsyncIterator()
    let failure = await failures.next()
    let expected = PersistenceError.systemCall(
      operation: "rename", path: Self.path + ".tmp", code: EIO)
    #expect(failure == expected)
    #expect(file.status == .failing(expected))
    #expect(calls.injected == 1)
    #expect(disk.data(at: Self.path) == nil)
    #expect(disk.data(at: Self.path + ".tmp") == nil)
    // The retry waits on the clock.
    await clock.waitForSleepers(1)
    #expect(clock.sleeperCount == 1)

    await clock.advance(by: .seconds(5))
    try await file.flush()
    #expect(file.status == .saved)
    #expect(calls.calls[.rename] == 2)
    #expect(try file.load() == Settings(theme: "dark"))
  }

  @Test("flush writes at once; a value equal to the one saved is not written again")
  func flushAndUnchanged() async throws {
    let disk = SimulatedDisk()
    let calls = FaultyCalls(disk)
    let clock = TestClock()
    let file = Self.makeFile(on: calls, clock: clock)
    file.save(Settings(theme: "dark"))
    try await file.flush()
    #expect(calls.calls[.rename] == 1)

    let reopened = Self.makeFile(on: calls, clock: clock)
    let loaded = try reopened.load() ?? Settings()
    let store = Store<Settings, Void>(initialState: loaded)
    reopened.keepSaving(\.self, of: store)
    #expect(reopened.status == .saved)
    try await reopened.flush()
    #expect(calls.calls[.rename] == 1)
  }

  @Test("a damaged file is reported by line and left as it is; a newer schema is refused")
  func damageAndSchema() async throws {
    let disk = SimulatedDisk()
    let clock = TestClock()
    let newer = Self.makeFile(on: disk, clock: clock, schemaVersion: 2)
    newer.save(Settings(theme: "dark"))
    try await newer.flush()
    let older = Self.makeFile(on: disk, clock: clock)
    #expect(throws: PersistenceError.newerSchema(file: Self.path, found: 2, supported: 1)) {
      _ = try older.load()
    }

    let bytes = disk.data(at: Self.path) ?? []
    var text = String(decoding: bytes, as: UTF8.self)
    text = text.replacingOccurrences(of: "dark", with: "dork")
    let damaged: [UInt8] = Array(text.utf8)
    disk.setData(damaged, at: Self.path)
    #expect {
      _ = try newer.load()
    } throws: { error in
      guard case .damaged(let file, let line, let reason) = error as? PersistenceError else {
        return false
      }
      return file == Self.path && line == 3 && reason.contains("checksum")
    }
    #expect(disk.data(at: Self.path) == damaged)
  }
}

/// A value that counts how often it is compared.
struct Counted: State, Codable, Sendable {
  static let comparisons = Atomic<Int>(0)
  var value = 0

  static func == (lhs: Counted, rhs: Counted) -> Bool {
    comparisons.add(1, ordering: .relaxed)
    return lhs.value == rhs.value
  }
}

extension Counted: Equatable {}

struct IncrementCounted: StateUpdater {
  func updateState(_ state: inout Counted) { state.value += 1 }
}
