import ActionLog
import Foundation
import StatePersistence
import StateStore
import Synchronization

/// The sample app whose files every release keeps reading: a list of notes and a theme.
///
/// Its types are those of the app that recorded `Fixtures/releases/0.1.0/notes-log.jsonl` with
/// the 0.1.0 library; `Note` is also a `State` today, so that a row can be an element scope
/// (which changes none of its encoding). They must never change: the fixtures pin how they
/// were encoded.
enum NotesApp {
  struct Note: State, Identifiable, Codable, Equatable {
    var id = 0
    var text = ""
    var done = false
  }

  struct NotesState: State, Codable, Equatable {
    var notes = TrackedArray<Note>()
    var nextID = 1
    var theme = "light"
  }

  struct AddNote: StateUpdater, Codable {
    let text: String
    func updateState(_ state: inout NotesState) {
      state.notes.append(Note(id: state.nextID, text: text))
      state.nextID += 1
    }
  }

  struct ToggleNote: StateUpdater, Codable {
    let id: Int
    func updateState(_ state: inout NotesState) { state.notes[id: id]?.done.toggle() }
  }

  struct RemoveNote: StateUpdater, Codable {
    let id: Int
    func updateState(_ state: inout NotesState) { state.notes.remove(id: id) }
  }

  struct SetTheme: StateUpdater, Codable {
    let theme: String
    func updateState(_ state: inout NotesState) { state.theme = theme }
  }

  /// Changes one note's text, dispatched through the note's element scope (`notes[4]`).
  struct SetText: StateUpdater, Codable {
    let text: String
    func updateState(_ state: inout Note) { state.text = text }
  }

  static func registry() -> ActionLogRegistry<NotesState> {
    let registry = ActionLogRegistry<NotesState>()
      .register(AddNote.self).register(ToggleNote.self).register(RemoveNote.self)
      .register(SetTheme.self)
    registry.scope("notes", elements: \.notes).register(SetText.self)
    return registry
  }

  /// The state after the 0.1.0 log's nine entries.
  static let afterNineEntries = NotesState(
    notes: [
      Note(id: 1, text: "milk", done: true),
      Note(id: 3, text: #"שלום "quoted""#, done: true),
      Note(id: 4, text: "bread", done: false),
      Note(id: 5, text: "jam", done: false),
    ],
    nextID: 6, theme: "dark")

  /// The state after the session's ten changes, as every file written by 0.2.0 holds it.
  static let afterSession = NotesState(
    notes: [
      Note(id: 1, text: "milk", done: true),
      Note(id: 3, text: #"שלום "quoted""#, done: true),
      Note(id: 4, text: "rye bread", done: false),
      Note(id: 5, text: "jam", done: false),
    ],
    nextID: 6, theme: "dark")

  /// The session's first run: seven changes, with the cause a user's action gives them (the
  /// theme's change has none).
  @MainActor
  static func firstRun(_ store: Store<NotesState, Void>) {
    user("user: add") { store.dispatch(AddNote(text: "milk")) }
    user("user: add") { store.dispatch(AddNote(text: "eggs 🥚")) }
    user("user: add") { store.dispatch(AddNote(text: #"שלום "quoted""#)) }
    user("user: done") { store.dispatch(ToggleNote(id: 1)) }
    store.dispatch(SetTheme(theme: "dark"))
    user("user: remove") { store.dispatch(RemoveNote(id: 2)) }
    user("user: add") { store.dispatch(AddNote(text: "bread")) }
  }

  /// The session's second run: three changes, the last through note 4's element scope.
  @MainActor
  static func secondRun(_ store: Store<NotesState, Void>) {
    user("user: done") { store.dispatch(ToggleNote(id: 3)) }
    user("user: add") { store.dispatch(AddNote(text: "jam")) }
    user("user: edit") {
      store.scope(state: \.notes, id: 4).dispatch(SetText(text: "rye bread"))
    }
  }

  @MainActor
  private static func user(_ name: String, _ body: () -> Void) {
    DispatchCause.$current.withValue(DispatchCause(name), operation: body)
  }

  /// A wall clock that starts at 2026-11-18 11:06:41 UTC and moves one second at each reading,
  /// so that what it stamps is the same every time.
  static func steppingClock() -> @Sendable () -> Date {
    let seconds = Mutex(1_795_000_000.0)
    return {
      seconds.withLock { value in
        value += 1
        return Date(timeIntervalSince1970: value)
      }
    }
  }

  /// Writes, in `directory`, what this release writes for the session: `notes-log.jsonl` (an
  /// action log recorded in diff mode with checkpoints, in two runs), `notes-journal/` (a
  /// journaled store's directory, opened twice, with snapshots) and `notes-snapshot.json` (a
  /// `SnapshotFile` of the final state).
  @MainActor
  static func write(in directory: URL) async throws {
    let log = directory.appendingPathComponent("notes-log.jsonl")
    let options = ActionRecorder.Options(
      checkpointInterval: 3, recordsTime: true, recordsDiffs: true, clock: steppingClock())
    let recorded = Store<NotesState, Void>(initialState: NotesState())
    for run in [firstRun, secondRun] {
      let recorder = try ActionRecorder(
        store: recorded, registry: registry(), destination: .file(log), options: options)
      run(recorded)
      try recorder.stop()
    }

    let journal = directory.appendingPathComponent("notes-journal")
    var journalOptions = JournalOptions(snapshotInterval: 4)
    journalOptions.now = steppingClock()
    journalOptions.pollInterval = nil
    for run in [firstRun, secondRun] {
      let journaled = try await JournaledStore.open(
        directory: journal, registry: registry(), options: journalOptions)
      run(journaled.store)
      try await journaled.close()
    }
    try? FileManager.default.removeItem(at: journal.appendingPathComponent("lock"))

    let file = SnapshotFile<NotesState>(
      url: directory.appendingPathComponent("notes-snapshot.json"))
    file.save(recorded.state)
    try await file.flush()
  }
}
