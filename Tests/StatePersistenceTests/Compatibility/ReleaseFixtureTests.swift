import ActionLog
import Foundation
import StateStore
import StateStoreTesting
import Testing

@testable import StatePersistence

/// The files in `Fixtures/releases/`, one folder per release that wrote them.
enum ReleaseFixtures {
  static let directory = URL(fileURLWithPath: #filePath)
    .deletingLastPathComponent().deletingLastPathComponent()
    .appendingPathComponent("Fixtures/releases")

  static func url(_ release: String, _ name: String) -> URL {
    directory.appendingPathComponent(release).appendingPathComponent(name)
  }

  /// A copy of `source` in a fresh temporary directory, so that opening it for writing changes
  /// nothing in the repository; ``remove(_:)`` removes it.
  static func copy(_ source: URL) throws -> URL {
    let scratch = FileManager.default.temporaryDirectory
      .appendingPathComponent("release-fixture-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: scratch, withIntermediateDirectories: true)
    let copy = scratch.appendingPathComponent(source.lastPathComponent)
    try FileManager.default.copyItem(at: source, to: copy)
    return copy
  }

  /// Removes a copy made by ``copy(_:)``, with its temporary directory.
  static func remove(_ copy: URL) {
    try? FileManager.default.removeItem(at: copy.deletingLastPathComponent())
  }
}

/// Every format a release wrote is read by the later ones (the promise in the StateStore
/// catalog's "Formats and compatibility"): the files an earlier release wrote open and replay
/// to exactly the state they held.
@MainActor
@Suite("Files written by earlier releases open and replay exactly")
struct ReleaseFixtureTests {
  typealias NotesState = NotesApp.NotesState

  @Test("0.1.0's action log, recorded in two runs with checkpoints, replays to its state")
  func actionLogOf010() throws {
    let log = ReleaseFixtures.url("0.1.0", "notes-log.jsonl")
    let replayer = ActionReplayer(registry: NotesApp.registry())
    let summary = try replayer.replaySummary(contentsOf: log, initialState: NotesState())
    #expect(summary.finalState == NotesApp.afterNineEntries)
    #expect(summary.entriesApplied == 9)
    #expect(summary.lastSequence == 9)
    #expect(summary.checkpointsVerified == 4, "every checkpoint matches the replayed state")
    #expect(try replayer.replay(contentsOf: log) == NotesApp.afterNineEntries)

    let entries = try replayer.entries(contentsOf: log)
    #expect(entries.map(\.sequence) == Array(1...9))
    #expect(
      entries.map(\.type) == [
        "AddNote", "AddNote", "AddNote", "ToggleNote", "SetTheme", "RemoveNote", "AddNote",
        "ToggleNote", "AddNote",
      ])
    #expect(
      entries.map(\.cause?.name) == [
        "user: add", "user: add", "user: add", "user: done", nil, "user: remove", "user: add",
        "user: done", "user: add",
      ])
    #expect(entries.first?.time == Date(timeIntervalSince1970: 1_795_000_002))
    #expect(entries.last?.time == Date(timeIntervalSince1970: 1_795_000_010))
  }

  @Test("0.2.0's action log, in diff mode with an element scope's entry, replays to its state")
  func actionLogOf020() throws {
    let log = ReleaseFixtures.url("0.2.0", "notes-log.jsonl")
    let replayer = ActionReplayer(registry: NotesApp.registry())
    let summary = try replayer.replaySummary(contentsOf: log, initialState: NotesState())
    #expect(summary.finalState == NotesApp.afterSession)
    #expect(summary.entriesApplied == 10)
    #expect(summary.checkpointsVerified == 5, "every checkpoint matches the replayed state")
    #expect(try replayer.replay(contentsOf: log) == NotesApp.afterSession)

    let entries = try replayer.entries(contentsOf: log)
    #expect(entries.map(\.sequence) == Array(1...10))
    let scoped = try #require(entries.last?.updater as? any ScopedUpdaterProtocol)
    #expect(scoped.scopePath == ["notes"])
    #expect(entries.last?.cause?.name == "user: edit")
  }

  @Test("0.2.0's journal directory reads, and opens for writing, with its state and history")
  func journalOf020() async throws {
    let fixture = ReleaseFixtures.url("0.2.0", "notes-journal")
    let read = try await JournaledStore.read(directory: fixture, registry: NotesApp.registry())
    #expect(read.damage == nil)
    #expect(read.state == NotesApp.afterSession)
    #expect(read.lastSequence == 10)

    let directory = try ReleaseFixtures.copy(fixture)
    defer { ReleaseFixtures.remove(directory) }
    let journaled = try await JournaledStore.open(
      directory: directory, registry: NotesApp.registry())
    #expect(journaled.store.state == NotesApp.afterSession)
    #expect(journaled.lastSequence == 10)
    let history = try await journaled.history()
    #expect(history.map(\.sequence) == [9, 10], "the entries after the snapshot at 8")
    #expect(history.map(\.type) == ["AddNote", "SetText"])
    #expect(history.last?.scope == "notes[4]")
    #expect(history.last?.cause == "user: edit")

    journaled.store.dispatch(NotesApp.ToggleNote(id: 5))
    try await journaled.close()
    var expected = NotesApp.afterSession
    expected.notes[id: 5]?.done = true
    let reopened = try await JournaledStore.read(
      directory: directory, registry: NotesApp.registry())
    #expect(reopened.damage == nil)
    #expect(reopened.state == expected)
    #expect(reopened.lastSequence == 11)
  }

  @Test("0.2.0's snapshot file loads to its value")
  func snapshotFileOf020() throws {
    let file = SnapshotFile<NotesState>(url: ReleaseFixtures.url("0.2.0", "notes-snapshot.json"))
    #expect(try file.load() == NotesApp.afterSession)
  }

  @Test("the 0.2.0 fixtures' journal segments are action logs that replay from the snapshot")
  func journalSegmentsAreActionLogs() throws {
    let fixture = ReleaseFixtures.url("0.2.0", "notes-journal")
    let names = try FileManager.default.contentsOfDirectory(atPath: fixture.path).sorted()
    #expect(names == ["journal-9.jsonl", "snapshot.json"])
    let file = SnapshotFile<NotesState>(url: fixture.appendingPathComponent("snapshot.json"))
    let snapshot = try #require(try file.load())
    let replayed = try ActionReplayer(registry: NotesApp.registry())
      .replay(contentsOf: fixture.appendingPathComponent("journal-9.jsonl"), initialState: snapshot)
    #expect(replayed == NotesApp.afterSession)
  }

  @Test("what this release writes for the session holds the same states as its fixtures")
  func writtenToday() async throws {
    let scratch = FileManager.default.temporaryDirectory
      .appendingPathComponent("release-fixtures-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: scratch, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: scratch) }
    try await NotesApp.write(in: scratch)

    let replayer = ActionReplayer(registry: NotesApp.registry())
    #expect(
      try replayer.replay(contentsOf: scratch.appendingPathComponent("notes-log.jsonl"))
        == NotesApp.afterSession)
    let read = try await JournaledStore.read(
      directory: scratch.appendingPathComponent("notes-journal"), registry: NotesApp.registry())
    #expect(read.state == NotesApp.afterSession)
    #expect(
      try SnapshotFile<NotesState>(url: scratch.appendingPathComponent("notes-snapshot.json"))
        .load() == NotesApp.afterSession)

    // `WRITE_RELEASE_FIXTURES=<version>` writes them into the fixtures, for a new release.
    if let release = ProcessInfo.processInfo.environment["WRITE_RELEASE_FIXTURES"] {
      let target = ReleaseFixtures.directory.appendingPathComponent(release)
      try FileManager.default.createDirectory(at: target, withIntermediateDirectories: true)
      for name in ["notes-log.jsonl", "notes-journal", "notes-snapshot.json"] {
        try? FileManager.default.removeItem(at: target.appendingPathComponent(name))
        try FileManager.default.copyItem(
          at: scratch.appendingPathComponent(name), to: target.appendingPathComponent(name))
      }
    }
  }
}

/// A file of a newer format version than this release writes is refused, named, and left as
/// it is: the other half of the promise in "Formats and compatibility".
@MainActor
@Suite("Files of a newer format version are refused and never written over")
struct NewerFormatTests {
  typealias NotesState = NotesApp.NotesState

  /// The first version this release does not read: 3 for the action log and the journal's
  /// segments (which read versions 1 and 2), 2 for the snapshot formats.
  static func newerVersion(of file: String) -> Int {
    file.hasSuffix(".jsonl") ? 3 : 2
  }

  /// A copy of the 0.2.0 fixture `name` in which the first line's version reads the version
  /// after this release's, as a later release's file might; returns the copy and the
  /// changed file.
  static func newerCopy(of name: String, changing file: String? = nil) throws -> (URL, URL) {
    let copy = try ReleaseFixtures.copy(ReleaseFixtures.url("0.2.0", name))
    let changed = file.map { copy.appendingPathComponent($0) } ?? copy
    let text = try String(contentsOf: changed, encoding: .utf8)
    let version = newerVersion(of: file ?? name)
    // The header's version, 1 or 2, on the first line.
    let header = text.prefix { $0 != "\n" }
    let newerHeader = header.replacing(/"version":[12]\b/, with: "\"version\":\(version)")
    let newer = newerHeader + text.dropFirst(header.count)
    #expect(newer != text)
    try newer.write(to: changed, atomically: true, encoding: .utf8)
    return (copy, changed)
  }

  @Test("an action log: ActionLogError.unsupportedVersion, naming the version")
  func actionLog() throws {
    let (log, _) = try Self.newerCopy(of: "notes-log.jsonl")
    defer { ReleaseFixtures.remove(log) }
    #expect(throws: ActionLogError.unsupportedVersion(line: 1, version: 3)) {
      try ActionReplayer(registry: NotesApp.registry())
        .replay(contentsOf: log, initialState: NotesState())
    }
  }

  @Test(
    "a journal segment or snapshot: the open fails naming the file, which stays as it was",
    arguments: ["journal-9.jsonl", "snapshot.json"])
  func journal(file: String) async throws {
    let (directory, changed) = try Self.newerCopy(of: "notes-journal", changing: file)
    defer { ReleaseFixtures.remove(directory) }
    let before = try Data(contentsOf: changed)
    do {
      let journaled = try await JournaledStore.open(
        directory: directory, registry: NotesApp.registry())
      Issue.record("opened a directory holding a newer \(file)")
      try await journaled.close()
    } catch {
      guard case .damaged(let path, let line, let reason) = error else {
        Issue.record("unexpected error \(error)")
        return
      }
      #expect(path.hasSuffix("/notes-journal/\(file)"))
      #expect(line == 1)
      #expect(
        reason
          == (file == "snapshot.json"
            ? "version 2 is not supported (this library reads versions up to 1)"
            : "version 3 is not supported (this library reads versions up to 2)"))
    }
    #expect(try Data(contentsOf: changed) == before)
  }

  @Test("a snapshot file: load() fails naming the file, and saving stops until the app decides")
  func snapshotFile() async throws {
    let (url, _) = try Self.newerCopy(of: "notes-snapshot.json")
    defer { ReleaseFixtures.remove(url) }
    let before = try Data(contentsOf: url)
    let file = SnapshotFile<NotesState>(url: url)
    #expect(
      throws: PersistenceError.damaged(
        file: url.path, line: 1,
        reason: "version 2 is not supported (this library reads versions up to 1)")
    ) { try file.load() }
    file.save(NotesState())
    await #expect(throws: PersistenceError.self) { try await file.flush() }
    #expect(try Data(contentsOf: url) == before)
  }
}
