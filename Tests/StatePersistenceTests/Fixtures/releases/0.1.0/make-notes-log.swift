// Wrote notes-log.jsonl with the 0.1.0 library (commit 7dbfe37) as the main.swift of an
// executable target depending on StateStore: `make-notes-log notes-log.jsonl`. An action log
// of the notes sample app, recorded with checkpoints, causes and times, in two runs appended to
// one file.
import Foundation
import StateStore
import Synchronization

struct Note: Identifiable, Codable, Equatable, Sendable {
  var id: Int
  var text: String
  var done: Bool
}

struct NotesState: State, Codable, Equatable {
  var notes = TrackedArray<Note>()
  var nextID = 1
  var theme = "light"
}

struct AddNote: StateUpdater, Codable {
  let text: String
  func updateState(_ state: inout NotesState) {
    _ = state.notes.append(Note(id: state.nextID, text: text, done: false))
    state.nextID += 1
  }
}

struct ToggleNote: StateUpdater, Codable {
  let id: Int
  func updateState(_ state: inout NotesState) { state.notes[id: id]?.done.toggle() }
}

struct RemoveNote: StateUpdater, Codable {
  let id: Int
  func updateState(_ state: inout NotesState) { _ = state.notes.remove(id: id) }
}

struct SetTheme: StateUpdater, Codable {
  let theme: String
  func updateState(_ state: inout NotesState) { state.theme = theme }
}

let seconds = Mutex(1_795_000_000.0)
let clock: @Sendable () -> Date = {
  seconds.withLock { value in
    value += 1
    return Date(timeIntervalSince1970: value)
  }
}

@MainActor
func record() throws {
  let url = URL(fileURLWithPath: CommandLine.arguments[1])
  try? FileManager.default.removeItem(at: url)
  let registry = ActionLogRegistry<NotesState>()
    .register(AddNote.self).register(ToggleNote.self).register(RemoveNote.self)
    .register(SetTheme.self)
  let store = Store(initialState: NotesState(), dependencies: ())
  let options = ActionRecorder.Options(checkpointInterval: 3, recordsTime: true, clock: clock)
  func user(_ name: String, _ body: () -> Void) {
    DispatchCause.$current.withValue(DispatchCause(name), operation: body)
  }

  let first = try ActionRecorder(
    store: store, registry: registry, destination: .file(url), options: options)
  user("user: add") { store.dispatch(AddNote(text: "milk")) }
  user("user: add") { store.dispatch(AddNote(text: "eggs 🥚")) }
  user("user: add") { store.dispatch(AddNote(text: "שלום \"quoted\"")) }
  user("user: done") { store.dispatch(ToggleNote(id: 1)) }
  store.dispatch(SetTheme(theme: "dark"))
  user("user: remove") { store.dispatch(RemoveNote(id: 2)) }
  user("user: add") { store.dispatch(AddNote(text: "bread")) }
  try first.stop()

  // A second run appends to the same file: a checkpoint of the state it starts from, then its
  // entries, numbered after the first run's.
  let second = try ActionRecorder(
    store: store, registry: registry, destination: .file(url), options: options)
  user("user: done") { store.dispatch(ToggleNote(id: 3)) }
  user("user: add") { store.dispatch(AddNote(text: "jam")) }
  try second.stop()
  print(store.state)
}

try MainActor.assumeIsolated { try record() }
