import Foundation
import SideEffects
import StateStore
import StateStoreTesting
import Testing

/// Where the chores import gets its titles: a mirror, else the server.
struct ImportSource: Sendable {
  var fetchFromMirror: @Sendable () async throws -> [String]
  var fetchTitles: @Sendable () async throws -> [String]

  /// A source that must not be asked: a replay gets the titles the session recorded.
  static let offline = ImportSource(
    fetchFromMirror: {
      Issue.record("the replay asked the mirror")
      return []
    },
    fetchTitles: {
      Issue.record("the replay asked the server")
      return []
    })

  /// The mirror and the server of the recorded session: the mirror is down.
  static let server = ImportSource(
    fetchFromMirror: { throw MirrorDown() },
    fetchTitles: { ["Water plants", "Sweep"] })
}

/// The error of a mirror that is down.
struct MirrorDown: Error {}

/// Imports a chore: fetches the titles from the mirror, else from the server, then adds the
/// first as chore ``id``, done.
struct ImportChore: SideEffect, Codable {
  var id: Int

  func sideEffect(
    _ context: SideEffectContext<ChoresState, ImportSource>
  ) async throws {
    let titles: [String]
    do {
      titles = try await context.recorded("mirror") {
        try await context.dependencies.fetchFromMirror()
      }
    } catch {
      titles = try await context.recorded("titles") {
        try await context.dependencies.fetchTitles()
      }
    }
    await context.dispatch(AddChore(id: id, title: titles.first ?? ""))
    await context.dispatch(SetChoreDone(id: id, done: true))
  }
}

/// A recorded session of the chores feature with a registered effect: chores added by hand,
/// two imports (one of chore ``ChoresSession/target``), then the target renamed, which the
/// planted bug reopens.
enum ImportSession {
  /// The updaters of the chores feature and the import effect, whose encoding the log records.
  static func registry() -> ActionLogRegistry<ChoresState> {
    ActionLogRegistry<ChoresState>.chores().registerEffect(ImportChore.self)
  }

  /// Records the session, in diff mode, with the bug planted.
  @MainActor
  static func record() async throws -> Data {
    try await PlantedBug.$isPlanted.withValue(true) {
      let store = Store(initialState: ChoresState(), dependencies: ImportSource.server)
      let recorder = try ActionRecorder(
        store: store, registry: registry(), destination: .memory,
        options: .init(
          recordsDiffs: true, recordsSites: false, effectClock: TestClock(),
          clock: { Date(timeIntervalSince1970: 0) }))
      store.dispatch(AddChore(id: 1, title: "Chore number 1"))
      try await store.dispatch(ImportChore(id: 2))
      store.dispatch(RenameChore(id: 1, title: "Renamed chore 1"))
      try await store.dispatch(ImportChore(id: ChoresSession.target))
      store.dispatch(SetChoreDone(id: 2, done: false))
      store.dispatch(AddChore(id: 3, title: "Chore number 3"))
      store.dispatch(RenameChore(id: ChoresSession.target, title: "Water the plants"))
      store.dispatch(RemoveChore(id: 3))
      try recorder.stop()
      return recorder.recordedData
    }
  }

  /// The session shrunk until chore ``ChoresSession/target`` stays done.
  @MainActor
  static func shrunk() async throws -> ShrunkSession<ChoresState> {
    let log = try await record()
    return try PlantedBug.$isPlanted.withValue(true) {
      try SessionShrinker(registry: registry()).shrink(
        log, until: ChoresSession.targetStaysDone())
    }
  }

  /// How the generated test is written.
  static let options = TestSourceOptions(
    testName: "shrunkImportSession", dependencies: "ImportSource.offline")
}
