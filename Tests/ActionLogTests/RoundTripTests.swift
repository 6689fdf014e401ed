import ActionLog
import Foundation
import StateStore
import Testing

@Suite("Round trips")
@MainActor
struct RoundTripTests {
  @Test("Replaying a recorded session gives the recorded final state")
  func memoryRoundTrip() throws {
    let store = Store<TodoState, Void>()
    let recorder = try ActionRecorder(store: store, registry: .todos(), destination: .memory)
    for updater in sampleSession() { store.dispatch(updater) }
    let replayed = try ActionReplayer(registry: .todos())
      .replay(recorder.recordedData, initialState: TodoState())
    #expect(replayed == store.state)
    #expect(recorder.entriesRecorded == 10)
    #expect(recorder.lastSequence == 10)
  }

  @Test("The written lines follow the documented format")
  func lineFormat() throws {
    let log = try recordedLog([AddTodo(title: "a \"quoted\"\ntitle"), ToggleTodo(id: 1)])
    let text = lines(of: log)
    #expect(text.count == 3)
    #expect(
      text[0].hasPrefix(#"{"format":"statestore-action-log","version":1,"state":"TodoState""#))
    #expect(text[1] == #"{"seq":1,"type":"AddTodo","payload":{"title":"a \"quoted\"\ntitle"}}"#)
    #expect(text[2] == #"{"seq":2,"type":"ToggleTodo","payload":{"id":1}}"#)
  }

  @Test("A file round trip replays from the URL")
  func fileRoundTrip() throws {
    let directory = try TemporaryDirectory()
    let url = directory.file("session.jsonl")
    let store = Store<TodoState, Void>()
    let recorder = try ActionRecorder(store: store, registry: .todos(), destination: .file(url))
    for updater in sampleSession() { store.dispatch(updater) }
    try recorder.synchronize()
    let replayed = try ActionReplayer(registry: .todos())
      .replay(contentsOf: url, initialState: TodoState())
    #expect(replayed == store.state)
  }

  @Test("A file handle destination gets the header and every entry")
  func fileHandleRoundTrip() throws {
    let directory = try TemporaryDirectory()
    let url = directory.file("handle.jsonl")
    #expect(FileManager.default.createFile(atPath: url.path, contents: nil))
    let handle = try FileHandle(forWritingTo: url)
    let store = Store<TodoState, Void>()
    let recorder = try ActionRecorder(
      store: store, registry: .todos(), destination: .fileHandle(handle))
    for updater in sampleSession() { store.dispatch(updater) }
    try recorder.stop()
    try handle.close()
    let replayed = try ActionReplayer(registry: .todos())
      .replay(contentsOf: url, initialState: TodoState())
    #expect(replayed == store.state)
  }

  @Test("A large state with thousands of elements round-trips, with checkpoints")
  func largeState() throws {
    var updaters: [any StateUpdater<TodoState>] = []
    for index in 0..<3000 { updaters.append(AddTodo(title: "todo \(index)")) }
    for id in stride(from: 1, through: 3000, by: 7) { updaters.append(ToggleTodo(id: id)) }
    for id in stride(from: 2, through: 3000, by: 11) { updaters.append(RemoveTodo(id: id)) }
    for index in 0..<200 { updaters.append(AddLabel(label: "label \(index % 50)")) }
    let log = try recordedLog(updaters, options: .init(checkpointInterval: 1000))
    let summary = try ActionReplayer(registry: .todos())
      .replaySummary(log, initialState: TodoState())
    #expect(summary.finalState == applied(updaters))
    #expect(summary.entriesApplied == updaters.count)
    #expect(summary.checkpointsVerified == 1 + updaters.count / 1000)
    #expect(summary.finalState.todos.count == 3000 - 273)
  }

  @Test("Replaying from a non-empty initial state applies on top of it")
  func nonEmptyInitialState() throws {
    let start = applied([AddTodo(title: "existing")])
    let log = try recordedLog([ToggleTodo(id: 1), AddTodo(title: "new")], initialState: start)
    let replayed = try ActionReplayer(registry: .todos()).replay(log, initialState: start)
    #expect(replayed == applied([ToggleTodo(id: 1), AddTodo(title: "new")], to: start))
  }

  @Test("Causes are recorded with each entry and read back")
  func causesRecorded() throws {
    let store = Store<TodoState, Void>()
    let recorder = try ActionRecorder(store: store, registry: .todos(), destination: .memory)
    DispatchCause.$current.withValue(DispatchCause("user: add")) {
      store.dispatch(AddTodo(title: "milk"))
    }
    store.dispatch(ToggleTodo(id: 1))
    #expect(lines(of: recorder.recordedData)[1].contains(#""cause":"user: add""#))
    let directory = try TemporaryDirectory()
    let url = directory.file("causes.jsonl")
    try recorder.recordedData.write(to: url)
    let entries = try ActionReplayer(registry: .todos()).entries(contentsOf: url)
    #expect(entries.map(\.cause) == [DispatchCause("user: add"), nil])
    #expect(entries.map(\.type) == ["AddTodo", "ToggleTodo"])
    #expect(entries.map(\.line) == [2, 3])
  }

  @Test("Times are recorded from the injected clock")
  func timesRecorded() throws {
    let log = try recordedLog(
      [AddTodo(title: "a")],
      options: .init(recordsTime: true, clock: { Date(timeIntervalSince1970: 1_700_000_000.25) }))
    #expect(lines(of: log)[1].contains(#""time":1700000000.250"#))
    let directory = try TemporaryDirectory()
    let url = directory.file("time.jsonl")
    try log.write(to: url)
    let entry = try #require(try ActionReplayer(registry: .todos()).entries(contentsOf: url).first)
    #expect(entry.time == Date(timeIntervalSince1970: 1_700_000_000.25))
  }

  @Test("Buffered recording writes nothing until flushed, then everything")
  func bufferedRecording() throws {
    let directory = try TemporaryDirectory()
    let url = directory.file("buffered.jsonl")
    let store = Store<TodoState, Void>()
    let recorder = try ActionRecorder(
      store: store, registry: .todos(), destination: .file(url), options: .buffered)
    for updater in sampleSession() { store.dispatch(updater) }
    #expect(lines(of: try Data(contentsOf: url)).count == 0)
    try recorder.flush()
    #expect(lines(of: try Data(contentsOf: url)).count == 11)
    #expect(
      try ActionReplayer(registry: .todos()).replay(contentsOf: url, initialState: TodoState())
        == store.state)
  }

  @Test("An interceptor's replacement is recorded, not the original dispatch")
  func interceptedUpdatersRecorded() throws {
    let swapToggle = StoreInterceptor<TodoState> { dispatchable, _, next in
      if let toggle = dispatchable as? ToggleTodo {
        next(RemoveTodo(id: toggle.id))
      } else {
        next(dispatchable)
      }
    }
    let store = Store<TodoState, Void>(interceptors: [swapToggle])
    let recorder = try ActionRecorder(store: store, registry: .todos(), destination: .memory)
    store.dispatch(AddTodo(title: "a"))
    store.dispatch(ToggleTodo(id: 1))
    let text = lines(of: recorder.recordedData)
    #expect(text.last == #"{"seq":2,"type":"RemoveTodo","payload":{"id":1}}"#)
    #expect(
      try ActionReplayer(registry: .todos()).replay(recorder.recordedData, initialState: .init())
        == store.state)
  }

  @Test("Custom names are written and read back; an old name can stay readable after a rename")
  func customNames() throws {
    let registry = ActionLogRegistry<TodoState>()
      .register(AddTodo.self, name: "add")
      .register(AddTodo.self, name: "todo.add")
    var writer = ActionLogWriter(registry: registry)
    try writer.append(AddTodo(title: "x"))
    #expect(lines(of: writer.data)[1].contains(#""type":"todo.add""#))
    let oldLog = Data(
      (#"{"format":"statestore-action-log","version":1}"# + "\n"
        + #"{"seq":1,"type":"add","payload":{"title":"old"}}"# + "\n").utf8)
    let replayed = try ActionReplayer(registry: registry).replay(oldLog, initialState: .init())
    #expect(replayed.todos.elements.map(\.title) == ["old"])
  }
}
