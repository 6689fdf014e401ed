import ActionLog
import Foundation
import StateStore
import Testing

@Suite("Recorder")
@MainActor
struct RecorderTests {
  @Test("Recorders appending to one file continue its numbering; the whole file replays")
  func appendsAcrossRecorders() throws {
    let directory = try TemporaryDirectory()
    let url = directory.file("session.jsonl")
    var state = TodoState()
    let runs: [[any StateUpdater<TodoState>]] = [
      [AddTodo(title: "a"), AddTodo(title: "b")], [ToggleTodo(id: 1)],
      [AddLabel(label: "x"), RemoveTodo(id: 2), AddTodo(title: "c")],
    ]
    for run in runs {
      // Each run is a new process: a fresh store loaded from the last state, a fresh recorder.
      let store = Store<TodoState, Void>(initialState: state)
      let recorder = try ActionRecorder(
        store: store, registry: .todos(), destination: .file(url),
        options: .init(checkpointInterval: 2))
      for updater in run { store.dispatch(updater) }
      try recorder.synchronize()
      try recorder.stop()
      state = store.state
    }
    let text = lines(of: try Data(contentsOf: url))
    #expect(text.filter { $0.hasPrefix(#"{"format""#) }.count == 1)
    let sequences = text.compactMap { line -> Int? in
      guard line.hasPrefix(#"{"seq":"#) else { return nil }
      return Int(line.dropFirst(7).prefix { $0.isNumber })
    }
    #expect(sequences == [1, 2, 3, 4, 5, 6])
    let summary = try ActionReplayer(registry: .todos())
      .replaySummary(contentsOf: url, initialState: TodoState())
    #expect(summary.finalState == state)
    #expect(summary.checkpointsVerified == 5)
  }

  @Test("Appending refuses a file that is not an action log, and leaves it untouched")
  func appendRefusesForeignFile() throws {
    let directory = try TemporaryDirectory()
    let url = directory.file("notes.txt")
    let original = Data("my precious notes\n".utf8)
    try original.write(to: url)
    let store = Store<TodoState, Void>()
    #expect(throws: ActionLogError.self) {
      _ = try ActionRecorder(store: store, registry: .todos(), destination: .file(url))
    }
    #expect(try Data(contentsOf: url) == original)
  }

  @Test("Appending refuses a log of another state type")
  func appendRefusesOtherState() throws {
    let directory = try TemporaryDirectory()
    let url = directory.file("other.jsonl")
    try Data((#"{"format":"statestore-action-log","version":1,"state":"Other"}"# + "\n").utf8)
      .write(to: url)
    #expect(throws: ActionLogError.stateTypeMismatch(logged: "Other", store: "TodoState")) {
      _ = try ActionRecorder(
        store: Store<TodoState, Void>(), registry: .todos(), destination: .file(url))
    }
  }

  @Test("Appending after a crash cuts the torn last line and goes on from the last entry")
  func appendRepairsTornTail() throws {
    let directory = try TemporaryDirectory()
    let url = directory.file("crashed.jsonl")
    var log = try recordedLog([AddTodo(title: "a"), AddTodo(title: "b")])
    log.append(Data(#"{"seq":3,"type":"AddTo"#.utf8))
    try log.write(to: url)
    let store = Store<TodoState, Void>(
      initialState: applied([AddTodo(title: "a"), AddTodo(title: "b")]))
    let recorder = try ActionRecorder(store: store, registry: .todos(), destination: .file(url))
    store.dispatch(ToggleTodo(id: 2))
    try recorder.stop()
    let text = lines(of: try Data(contentsOf: url))
    #expect(text.count == 4)
    #expect(text[3] == #"{"seq":3,"type":"ToggleTodo","payload":{"id":2}}"#)
    #expect(
      try ActionReplayer(registry: .todos()).replay(contentsOf: url, initialState: TodoState())
        == store.state)
  }

  @Test("An unregistered updater is reported and marked, and the replay stops there")
  func unregisteredUpdater() throws {
    let store = Store<TodoState, Void>()
    let recorder = try ActionRecorder(store: store, registry: .todos(), destination: .memory)
    var reported: [ActionLogError] = []
    recorder.onError = { reported.append($0) }
    store.dispatch(AddTodo(title: "a"))
    store.dispatch(Unregistered())
    store.dispatch(AddTodo(title: "b"))
    #expect(reported == [.unregisteredUpdater(type: "ActionLogTests.Unregistered")])
    #expect(recorder.entriesRecorded == 2)
    let text = lines(of: recorder.recordedData)
    #expect(
      text[2] == #"{"seq":2,"unrecorded":"ActionLogTests.Unregistered","reason":"not registered"}"#)
    #expect(
      throws: ActionLogError.unrecordedEntry(
        line: 3, sequence: 2, type: "ActionLogTests.Unregistered", reason: "not registered")
    ) {
      try ActionReplayer(registry: .todos()).replay(recorder.recordedData, initialState: .init())
    }
  }

  @Test("Without an error handler, recording errors reach the store's onUnhandledError")
  func defaultErrorRouting() throws {
    let store = Store<TodoState, Void>()
    var unhandled: [String] = []
    store.onUnhandledError = { error, dispatchable in
      unhandled.append("\(type(of: dispatchable)): \(error)")
    }
    let recorder = try ActionRecorder(store: store, registry: .todos(), destination: .memory)
    store.dispatch(Unregistered())
    #expect(unhandled.count == 1)
    #expect(unhandled.first?.hasPrefix("Unregistered: action recorder: ") == true)
    _ = recorder
  }

  @Test("Updaters registered after recording started are recorded")
  func lateRegistration() throws {
    let registry = ActionLogRegistry<TodoState>().register(AddTodo.self)
    let store = Store<TodoState, Void>()
    let recorder = try ActionRecorder(store: store, registry: registry, destination: .memory)
    registry.register(ToggleTodo.self)
    store.dispatch(AddTodo(title: "a"))
    store.dispatch(ToggleTodo(id: 1))
    #expect(recorder.entriesRecorded == 2)
  }

  @Test("A stopped or released recorder records nothing more")
  func stopping() throws {
    let store = Store<TodoState, Void>()
    let recorder = try ActionRecorder(store: store, registry: .todos(), destination: .memory)
    store.dispatch(AddTodo(title: "a"))
    try recorder.stop()
    try recorder.stop()
    store.dispatch(AddTodo(title: "b"))
    #expect(recorder.entriesRecorded == 1)
    weak var released: ActionRecorder?
    do {
      let temporary = try ActionRecorder(store: store, registry: .todos(), destination: .memory)
      released = temporary
    }
    #expect(released == nil)
    store.dispatch(AddTodo(title: "c"))
  }

  @Test("Checkpoints need an Encodable state")
  func checkpointsNeedEncodableState() {
    struct Plain: State {}
    struct Nothing: StateUpdater, Codable {
      func updateState(_ state: inout Plain) {}
    }
    let registry = ActionLogRegistry<Plain>().register(Nothing.self)
    #expect(throws: ActionLogError.self) {
      _ = try ActionRecorder(
        store: Store<Plain, Void>(), registry: registry, destination: .memory,
        options: .init(checkpointInterval: 10))
    }
  }

  @Test("Each entry is one line, written whole: the file grows by complete lines")
  func wholeLines() throws {
    let directory = try TemporaryDirectory()
    let url = directory.file("lines.jsonl")
    let store = Store<TodoState, Void>()
    let recorder = try ActionRecorder(store: store, registry: .todos(), destination: .file(url))
    for updater in sampleSession() {
      store.dispatch(updater)
      let data = try Data(contentsOf: url)
      #expect(data.last == 0x0A)
    }
    try recorder.stop()
  }
}
