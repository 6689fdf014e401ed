import Foundation
import PersistenceTestSupport
import StateStore
import StateStoreTesting
import Testing

@testable import StatePersistence

/// A `SnapshotFile` never writes over a file it could not read: the usual launch (`load()`
/// throws, the app starts from a default value and keeps saving) stops saving until the app
/// sets the file aside, and a save that finds such a file where it would write stops too.
@MainActor
@Suite("A snapshot file that could not be read")
struct UnreadableSnapshotFileTests {
  static let path = SnapshotFileTests.path

  /// A file holding `theme`, saved whole by a keeper of schema `schemaVersion`.
  static func savedFile(
    _ theme: String, on disk: SimulatedDisk, schemaVersion: Int = 1
  ) async throws -> [UInt8] {
    let file = SnapshotFileTests.makeFile(
      on: disk, clock: TestClock(), schemaVersion: schemaVersion)
    file.save(Settings(theme: theme))
    try await file.flush()
    return try #require(disk.data(at: path))
  }

  /// The bytes of `bytes` with one letter of the value changed: the checksum no longer holds.
  static func flipped(_ bytes: [UInt8]) -> [UInt8] {
    Array(
      String(decoding: bytes, as: UTF8.self).replacingOccurrences(of: "dark", with: "dork").utf8)
  }

  /// The launch of the article: load, a store on the default value when the load fails, keep
  /// saving, a change, a flush.
  static func launch(_ file: SnapshotFile<Settings>) async -> (
    loadError: PersistenceError?, flushError: PersistenceError?, store: Store<Settings, Void>
  ) {
    var loadError: PersistenceError?
    var loaded: Settings?
    do { loaded = try file.load() } catch { loadError = error }
    let store = Store<Settings, Void>(initialState: loaded ?? Settings())
    file.keepSaving(\.self, of: store)
    store.dispatch(SetTheme(theme: "new"))
    var flushError: PersistenceError?
    do { try await file.flush() } catch { flushError = error }
    return (loadError, flushError, store)
  }

  @Test("a damaged file: load throws, the keeper stops saving, flush throws, the file is kept")
  func damaged() async throws {
    let disk = SimulatedDisk()
    let damaged = Self.flipped(try await Self.savedFile("dark", on: disk))
    disk.setData(damaged, at: Self.path)
    let file = SnapshotFileTests.makeFile(on: disk, clock: TestClock())

    let (loadError, flushError, store) = await Self.launch(file)

    let error = try #require(loadError)
    guard case .damaged(Self.path, 3, _) = error else {
      Issue.record("expected damage at line 3, got \(error)")
      return
    }
    #expect(flushError == error, "flush reports why nothing was saved")
    #expect(file.status == .stopped(error))
    #expect(disk.data(at: Self.path) == damaged, "the damaged file is never written over")
    #expect(store.state.theme == "new", "the app runs on, in memory")
  }

  @Test("a file of a newer schema: nothing an older app saves replaces it")
  func newer() async throws {
    let disk = SimulatedDisk()
    let newer = try await Self.savedFile("dark", on: disk, schemaVersion: 2)
    let clock = TestClock()
    let file = SnapshotFileTests.makeFile(on: disk, clock: clock)

    let (loadError, flushError, _) = await Self.launch(file)

    let expected = PersistenceError.newerSchema(file: Self.path, found: 2, supported: 1)
    #expect(loadError == expected)
    #expect(flushError == expected)
    #expect(file.status == .stopped(expected))
    // Nor does the coalescing timer, nor a retry.
    await clock.advance(by: .seconds(60))
    file.save(Settings(theme: "later"))
    await clock.advance(by: .seconds(60))
    #expect(disk.data(at: Self.path) == newer)
  }

  @Test("a file in a later release's format, laid out anew: named as a newer version, and kept")
  func newerFormat() async throws {
    let disk = SimulatedDisk()
    _ = try await Self.savedFile("dark", on: disk)
    // A header of format version 2 and a layout this release does not know: four lines.
    let later = Array(
      ("{\"format\":\"statepersistence-snapshot\",\"version\":2,\"schema\":1,\"seq\":0}\n"
        + "{\"theme\":\"dark\"}\n{\"extra\":true}\n{\"digest\":\"0\"}\n").utf8)
    disk.setData(later, at: Self.path)
    let file = SnapshotFileTests.makeFile(on: disk, clock: TestClock())

    let (loadError, flushError, _) = await Self.launch(file)

    let expected = PersistenceError.damaged(
      file: Self.path, line: 1,
      reason: "version 2 is not supported (this library reads versions up to 1)")
    #expect(loadError == expected)
    #expect(flushError == expected)
    #expect(disk.data(at: Self.path) == later, "a later release's file is never written over")
  }

  @Test("a load that fails on the disk stops saving too: a file it could not read is not replaced")
  func unreadable() async throws {
    let disk = SimulatedDisk()
    let saved = try await Self.savedFile("dark", on: disk)
    let calls = FaultyCalls(disk, fault: .init(kind: .read, occurrence: 1, code: EIO))
    let file = SnapshotFileTests.makeFile(on: calls, clock: TestClock())

    let (loadError, flushError, _) = await Self.launch(file)

    let expected = PersistenceError.systemCall(operation: "read", path: Self.path, code: EIO)
    #expect(loadError == expected)
    #expect(flushError == expected)
    #expect(disk.data(at: Self.path) == saved)
  }

  @Test("setting the file aside keeps it beside the new one and resumes saving")
  func setAside() async throws {
    let disk = SimulatedDisk()
    let damaged = Self.flipped(try await Self.savedFile("dark", on: disk))
    disk.setData(damaged, at: Self.path)
    let file = SnapshotFileTests.makeFile(on: disk, clock: TestClock())
    let (loadError, _, _) = await Self.launch(file)
    #expect(loadError != nil)

    let aside = try await file.setAsideUnreadableFile()

    #expect(aside?.path == Self.path + ".unreadable")
    #expect(disk.data(at: Self.path + ".unreadable") == damaged)
    try await file.flush()
    #expect(file.status == .saved)
    #expect(try file.load() == Settings(theme: "new"))

    // A second unreadable file does not replace the first one set aside.
    disk.setData(damaged, at: Self.path)
    let again = SnapshotFileTests.makeFile(on: disk, clock: TestClock())
    _ = await Self.launch(again)
    #expect(try await again.setAsideUnreadableFile()?.path == Self.path + ".unreadable-2")
    #expect(disk.data(at: Self.path + ".unreadable") == damaged)
    #expect(disk.data(at: Self.path + ".unreadable-2") == damaged)
  }

  @Test("a save that finds a damaged or newer file where it writes stops, and keeps that file")
  func foundAtSave() async throws {
    let disk = SimulatedDisk()
    let clock = TestClock()
    let file = SnapshotFileTests.makeFile(on: disk, clock: clock)
    let store = Store<Settings, Void>(initialState: (try file.load()) ?? Settings())
    file.keepSaving(\.self, of: store)
    store.dispatch(SetTheme(theme: "mine"))
    try await file.flush()

    // Another version of the app wrote the file since.
    let newer = try await Self.savedFile("theirs", on: disk, schemaVersion: 2)
    store.dispatch(SetTheme(theme: "mine again"))
    let expected = PersistenceError.newerSchema(file: Self.path, found: 2, supported: 1)
    await #expect(throws: expected) { try await file.flush() }
    #expect(file.status == .stopped(expected))
    var failures = file.failures.makeAsyncIterator()
    #expect(await failures.next() == expected)
    await clock.advance(by: .seconds(60))
    #expect(disk.data(at: Self.path) == newer)

    // And a damaged one.
    let other = SnapshotFileTests.makeFile(on: disk, clock: clock)
    let otherStore = Store<Settings, Void>(initialState: Settings())
    other.keepSaving(\.self, of: otherStore)
    let damaged = Self.flipped(try SnapshotCodec.encode(Settings(theme: "dark"), schema: 1, seq: 0))
    disk.setData(damaged, at: Self.path)
    otherStore.dispatch(SetTheme(theme: "x"))
    await #expect(throws: PersistenceError.self) { try await other.flush() }
    #expect(disk.data(at: Self.path) == damaged)
  }

  @Test("a load that succeeds again (the file was restored) resumes saving")
  func restored() async throws {
    let disk = SimulatedDisk()
    let saved = try await Self.savedFile("dark", on: disk)
    disk.setData(Self.flipped(saved), at: Self.path)
    let file = SnapshotFileTests.makeFile(on: disk, clock: TestClock())
    #expect(throws: PersistenceError.self) { _ = try file.load() }
    file.save(Settings(theme: "unsaved"))
    #expect(disk.data(at: Self.path) == Self.flipped(saved))

    disk.setData(saved, at: Self.path)
    #expect(try file.load() == Settings(theme: "dark"))
    try await file.flush()
    #expect(file.status == .saved)
    #expect(try file.load() == Settings(theme: "unsaved"))
  }
}
