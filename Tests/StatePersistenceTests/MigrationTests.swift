import ActionLog
import Foundation
import PersistenceTestSupport
import StateStore
import Testing

@testable import StatePersistence

/// The sample app's first release, schema version 1: notes are plain strings.
///
/// It wrote the files in `Fixtures/` (``write(on:)``); ``MigrationTests`` regenerates them to prove they
/// did not drift, and opens them with ``V2App``.
enum V1App {
  struct NotesState: State, Codable, Equatable {
    var notes: [String] = []
    var settings = Settings()
  }

  struct Settings: State, Codable, Equatable {
    var theme = "light"
  }

  struct AddNote: StateUpdater, Codable {
    let text: String
    func updateState(_ state: inout NotesState) { state.notes.append(text) }
  }

  struct SetTheme: StateUpdater, Codable {
    let theme: String
    func updateState(_ state: inout Settings) { state.theme = theme }
  }

  static func registry() -> ActionLogRegistry<NotesState> {
    let registry = ActionLogRegistry<NotesState>()
    registry.register(AddNote.self)
    registry.scope("settings", state: \.settings).register(SetTheme.self)
    return registry
  }

  /// The session both fixtures record.
  @MainActor
  static func session(_ store: Store<NotesState, Void>) -> [@MainActor () -> Void] {
    [
      { store.dispatch(AddNote(text: "milk")) },
      { store.dispatch(AddNote(text: "eggs")) },
      { store.scope(state: \.settings).dispatch(SetTheme(theme: "dark")) },
      { store.dispatch(AddNote(text: "bread")) },
      { store.dispatch(AddNote(text: "jam")) },
    ]
  }

  /// Writes `/v1-store` (a snapshot after entry 4, entry 5 in `journal-5.jsonl`) and
  /// `/v1-log` (the same session in one segment, an action log) on `system`.
  @MainActor
  static func write(on system: any SystemCalls) async throws {
    for (directory, interval) in [("/v1-store", 3), ("/v1-log", 1_000)] {
      let journaled = try await JournaledStore.open(
        directory: directory, dependencies: (), registry: registry(),
        options: JournalOptions(snapshotInterval: interval, recordsTime: false), system: system)
      for step in session(journaled.store) {
        step()
        try await journaled.flush()
      }
      try await journaled.close()
    }
  }
}

/// The sample app's second release, schema version 2: a note has a title and a done flag, the
/// settings a font size; `AddNote` became `AppendNote` (its `text` now `title`) and `SetTheme`
/// takes a `name`.
enum V2App {
  struct Note: Codable, Equatable {
    var title: String
    var done = false
  }

  struct NotesState: State, Codable, Equatable {
    var notes: [Note] = []
    var settings = Settings()
  }

  struct Settings: State, Codable, Equatable {
    var theme = "light"
    var fontSize = 13
  }

  struct AppendNote: StateUpdater, Codable {
    let title: String
    func updateState(_ state: inout NotesState) { state.notes.append(Note(title: title)) }
  }

  struct SetTheme: StateUpdater, Codable {
    let name: String
    func updateState(_ state: inout Settings) { state.theme = name }
  }

  struct MigrationFailed: Error {}

  static let schemaVersion = 2

  static let migrations = Migrations([
    SchemaMigration(from: 1)
      .renameUpdater(from: "AddNote", to: "AppendNote")
      .migratePayload(of: "AppendNote") { payload in
        payload["title"] = payload["text"]
        payload["text"] = nil
      }
      .migratePayload(of: "SetTheme") { payload in
        payload["name"] = payload["theme"]
        payload["theme"] = nil
      }
      .migrateSnapshot { state in
        guard case .array(let notes)? = state["notes"] else { throw MigrationFailed() }
        state["notes"] = .array(
          notes.map { .object(JSONObject([("title", $0), ("done", .bool(false))])) })
        state["settings"]?["fontSize"] = .number("13")
      }
  ])

  static let options = JournalOptions(
    snapshotInterval: 3, schemaVersion: schemaVersion, migrations: migrations)

  static func registry() -> ActionLogRegistry<NotesState> {
    let registry = ActionLogRegistry<NotesState>()
    registry.register(AppendNote.self)
    registry.scope("settings", state: \.settings).register(SetTheme.self)
    return registry
  }

  /// The state the V1 session leaves, as version 2 reads it.
  static let expected = NotesState(
    notes: ["milk", "eggs", "bread", "jam"].map { Note(title: $0) },
    settings: Settings(theme: "dark", fontSize: 13))
}

/// The fixtures: `Fixtures/v1-store/` and `Fixtures/v1-log/`, as ``V1App/write(on:)`` wrote
/// them.
enum MigrationFixtures {
  static let directory = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
    .appendingPathComponent("Fixtures")
  static let stores = ["v1-store", "v1-log"]

  /// Every fixture file, by its path on the simulated disk (`/v1-store/snapshot.json`).
  static func files() throws -> [String: [UInt8]] {
    var files: [String: [UInt8]] = [:]
    for store in stores {
      let folder = directory.appendingPathComponent(store)
      for name in try FileManager.default.contentsOfDirectory(atPath: folder.path) {
        files["/\(store)/\(name)"] = Array(
          try Data(contentsOf: folder.appendingPathComponent(name)))
      }
    }
    return files
  }

  /// A disk holding the fixtures.
  static func disk() throws -> SimulatedDisk {
    let disk = SimulatedDisk()
    for (path, bytes) in try files() { try disk.install(bytes, at: path) }
    return disk
  }
}

extension SimulatedDisk {
  /// Creates the file at `path` (and its directory) holding `bytes`, durably.
  func install(_ bytes: [UInt8], at path: String) throws {
    let directory = Self.parent(path)
    if (try? contentsOfDirectory(directory)) == nil {
      try makeDirectory(directory, mode: 0o700)
    }
    let descriptor = try open(path, flags: O_RDWR | O_CREAT, mode: 0o600)
    _ = try bytes.withUnsafeBytes { buffer in try write(descriptor, buffer, at: 0) }
    try close(descriptor)
    setData(bytes, at: path)
  }
}

@MainActor
@Suite("Schema migrations")
struct MigrationTests {
  /// Compares the committed fixtures with what ``V1App`` writes today; with
  /// `REGENERATE_FIXTURES=1` in the environment, writes them instead.
  @Test("the fixtures are exactly what the version 1 app writes")
  func fixturesDoNotDrift() async throws {
    let disk = SimulatedDisk()
    try await V1App.write(on: disk)
    var written: [String: [UInt8]] = [:]
    for store in MigrationFixtures.stores {
      for name in try disk.contentsOfDirectory("/\(store)") where name != "lock" {
        written["/\(store)/\(name)"] = disk.data(at: "/\(store)/\(name)")
      }
    }
    #expect(
      written.keys.sorted() == [
        "/v1-log/journal-1.jsonl", "/v1-store/journal-5.jsonl",
        "/v1-store/snapshot.json",
      ])
    if ProcessInfo.processInfo.environment["REGENERATE_FIXTURES"] == "1" {
      for (path, bytes) in written {
        let url = MigrationFixtures.directory.appendingPathComponent(String(path.dropFirst()))
        try FileManager.default.createDirectory(
          at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
        try Data(bytes).write(to: url)
      }
    }
    #expect(try MigrationFixtures.files() == written)
  }

  @Test("a version 1 store opens with version 2's types through the migrations, and is upgraded")
  func opensAndUpgrades() async throws {
    let disk = try MigrationFixtures.disk()
    let journaled = try await JournaledStore.open(
      directory: "/v1-store", dependencies: (), registry: V2App.registry(),
      options: V2App.options, system: disk)
    #expect(journaled.store.state == V2App.expected)
    #expect(journaled.lastSequence == 5)
    journaled.store.dispatch(V2App.AppendNote(title: "tea"))
    try await journaled.close()

    // Upgraded: a snapshot of version 2 after entry 5, the version 1 segment gone, entry 6 in
    // a version 2 segment.
    let snapshot = try SnapshotCodec.decode(
      V2App.NotesState.self, from: disk.data(at: "/v1-store/snapshot.json") ?? [],
      path: "snapshot.json", schema: 2)
    #expect(snapshot.header.schema == 2)
    #expect(snapshot.header.seq == 5)
    #expect(snapshot.value == V2App.expected)
    #expect(
      try disk.contentsOfDirectory("/v1-store").sorted() == [
        "journal-6.jsonl", "lock", "snapshot.json",
      ])
    let segment = String(decoding: disk.data(at: "/v1-store/journal-6.jsonl") ?? [], as: UTF8.self)
    #expect(
      segment.hasPrefix(
        #"{"format":"statestore-action-log","version":1,"state":"NotesState","schema":2}"#))

    var more = V2App.expected
    more.notes.append(V2App.Note(title: "tea"))
    let reopened = try await JournaledStore.open(
      directory: "/v1-store", dependencies: (), registry: V2App.registry(),
      options: V2App.options, system: disk)
    #expect(reopened.store.state == more)
    try await reopened.close()

    // The version 1 app now refuses the store, naming the file and both versions.
    do {
      _ = try await JournaledStore.open(
        directory: "/v1-store", dependencies: (), registry: V1App.registry(), system: disk)
      Issue.record("the version 1 app opened a version 2 store")
    } catch {
      #expect(error == .newerSchema(file: "/v1-store/snapshot.json", found: 2, supported: 1))
      #expect(
        error.description.hasPrefix(
          "/v1-store/snapshot.json was written with schema version 2, newer than the 1"))
    }
  }

  @Test("reading a version 1 store through the migrations writes nothing")
  func readsWithoutUpgrading() async throws {
    let disk = try MigrationFixtures.disk()
    let recovered = try await JournaledStore<V2App.NotesState, Void>.read(
      directory: "/v1-store", registry: V2App.registry(), schemaVersion: 2,
      migrations: V2App.migrations, system: disk)
    #expect(recovered.state == V2App.expected)
    #expect(recovered.damage == nil)
    for (path, bytes) in try MigrationFixtures.files() where path.hasPrefix("/v1-store/") {
      #expect(disk.data(at: path) == bytes, "\(path)")
    }
  }

  @Test("an old action log replays through the same migrations, checkpoints included")
  func oldActionLog() throws {
    let url = MigrationFixtures.directory.appendingPathComponent("v1-log/journal-1.jsonl")
    let old = try Data(contentsOf: url)
    let log = try V2App.migrations.migrateLog(old, file: url.path, to: 2)
    let state = try ActionReplayer(registry: V2App.registry())
      .replay(log, initialState: V2App.NotesState())
    #expect(state == V2App.expected)
    #expect(String(decoding: log, as: UTF8.self).contains(#""schema":2"#))

    // A checkpoint's state goes through the snapshot steps, so it verifies against the replay.
    let v1Checkpoint =
      #"{"checkpoint":5,"state":{"notes":["milk","eggs","bread","jam"],"settings":{"theme":"dark"}}}"#
    let withCheckpoint = try V2App.migrations.migrateLog(
      old + Data((v1Checkpoint + "\n").utf8), to: 2)
    let summary = try ActionReplayer(registry: V2App.registry())
      .replaySummary(withCheckpoint, initialState: V2App.NotesState())
    #expect(summary.checkpointsVerified == 1)
    #expect(summary.finalState == V2App.expected)

    // Without the migrations, today's registry cannot read it.
    #expect(throws: ActionLogError.self) {
      try ActionReplayer(registry: V2App.registry()).replay(old, initialState: V2App.NotesState())
    }
    #expect(throws: PersistenceError.newerSchema(file: "new.jsonl", found: 3, supported: 2)) {
      try V2App.migrations.migrateLog(
        Data(#"{"format":"statestore-action-log","version":1,"schema":3}"#.utf8) + Data([0x0A]),
        file: "new.jsonl", to: 2)
    }
  }

  @Test("a migration step that throws is damage naming the file and line, and nothing is written")
  func failingStep() async throws {
    let disk = try MigrationFixtures.disk()
    let failing = Migrations([
      SchemaMigration(from: 1).migratePayload(of: "AddNote") { _ in throw V2App.MigrationFailed() }
    ])
    do {
      _ = try await JournaledStore.open(
        directory: "/v1-store", dependencies: (), registry: V1App.registry(),
        options: JournalOptions(schemaVersion: 2, migrations: failing), system: disk)
      Issue.record("a failing migration opened")
    } catch {
      guard case .damaged(let file, let line, let reason) = error else {
        Issue.record("unexpected \(error)")
        return
      }
      #expect(file == "/v1-store/journal-5.jsonl")
      #expect(line == 2)
      #expect(reason.contains("migrating the payload of AddNote from schema version 1 failed"))
    }
    for (path, bytes) in try MigrationFixtures.files() where path.hasPrefix("/v1-store/") {
      #expect(disk.data(at: path) == bytes, "\(path)")
    }
  }

  @Test("a snapshot file of version 1 loads through the snapshot steps")
  func snapshotFile() throws {
    let disk = SimulatedDisk()
    try disk.install(
      try SnapshotCodec.encode(V1App.Settings(theme: "dark"), schema: 1, seq: 0),
      at: "/prefs/settings.json")
    let file = SnapshotFile<V2App.Settings>(
      path: "/prefs/settings.json",
      options: .init(
        schemaVersion: 2,
        migrations: Migrations([
          SchemaMigration(from: 1).migrateSnapshot { $0["fontSize"] = .number("15") }
        ])),
      system: disk)
    #expect(try file.load() == V2App.Settings(theme: "dark", fontSize: 15))
  }

  @Test(
    "an upgrading open failing at every call leaves the old files intact or the new snapshot complete",
    arguments: SystemCallKind.allCases, [false, true])
  func migrateSweep(kind: SystemCallKind, persistent: Bool) async throws {
    let dryRun = FaultyCalls(try MigrationFixtures.disk())
    try await Self.upgrade(on: dryRun)
    let points = dryRun.calls[kind] ?? 0
    let old = try MigrationFixtures.files().filter { $0.key.hasPrefix("/v1-store/") }
    for occurrence in 1...max(1, points) {
      let disk = try MigrationFixtures.disk()
      let fault = FaultyCalls.Fault(
        kind: kind, occurrence: occurrence, code: EIO, persistent: persistent)
      let calls = FaultyCalls(disk, fault: fault)
      try? await Self.upgrade(on: calls)
      #expect(points == 0 || calls.injected > 0, "\(fault) never happened")
      let oldIntact = old.allSatisfy { disk.data(at: $0.key) == $0.value }
      let upgraded =
        (try? SnapshotCodec.decode(
          V2App.NotesState.self, from: disk.data(at: "/v1-store/snapshot.json") ?? [],
          path: "snapshot.json", schema: 2)).map {
          $0.header.schema == 2 && $0.header.seq == 5 && $0.value == V2App.expected
        } ?? false
      #expect(oldIntact || upgraded, "\(fault)")
      let reopened = try await JournaledStore.open(
        directory: "/v1-store", dependencies: (), registry: V2App.registry(),
        options: V2App.options, system: disk)
      #expect(reopened.store.state == V2App.expected, "\(fault)")
      try await reopened.close()
    }
  }

  /// Opens the fixture store with version 2 (which upgrades it) and closes it.
  static func upgrade(on system: any SystemCalls) async throws {
    let journaled = try await JournaledStore.open(
      directory: "/v1-store", dependencies: (), registry: V2App.registry(),
      options: V2App.options, system: system)
    journaled.store.onUnhandledError = { _, _ in }
    try await journaled.close()
  }
}
