import ActionLog
import Foundation
import StateStore
import StateStoreTesting
import Testing

@Suite("Replaying from the log's first checkpoint: what a started app recorded")
@MainActor
struct ReplayFromFirstCheckpointTests {
  /// A session recorded from a store that was already changed when the recorder attached, as a
  /// started app's navigator mirrors its route first.
  func startedAppSession() throws -> (log: Data, final: TodoState) {
    let store = Store<TodoState, Void>(initialState: TodoState())
    store.dispatch(AddLabel(label: "launch"))
    let recorder = try ActionRecorder(
      store: store, registry: .todos(), destination: .memory,
      options: .init(checkpointInterval: 100))
    for updater in sampleSession() { store.dispatch(updater) }
    return (recorder.recordedData, store.state)
  }

  @Test("the default state diverges before entry 1; the first checkpoint starts right")
  func startsFromTheFirstCheckpoint() throws {
    let (log, final) = try startedAppSession()
    #expect(throws: ActionLogError.self) {
      try ActionReplayer(registry: .todos()).replay(log, initialState: TodoState())
    }
    let replayer = ActionReplayer(registry: .todos())
    #expect(try replayer.recordedInitialState(log).labels == ["launch"])
    #expect(try replayer.replay(log) == final)
  }

  @Test("a log without a checkpoint before its first entry says how to replay it")
  func noInitialCheckpoint() throws {
    let log = try recordedLog(sampleSession())
    #expect(throws: ActionLogError.noInitialCheckpoint(line: 2)) {
      try ActionReplayer(registry: .todos()).replay(log)
    }
    #expect(
      ActionLogError.noInitialCheckpoint(line: 2).description.contains(
        "replay it from an initialState, or record with a checkpointInterval"))
  }

  @Test("assertReplay without an initial state replays a fixture from its first checkpoint")
  func assertReplayFromTheFirstCheckpoint() throws {
    let (log, final) = try startedAppSession()
    let url = FileManager.default.temporaryDirectory
      .appendingPathComponent("started-app-\(UUID().uuidString).jsonl")
    try log.write(to: url)
    defer { try? FileManager.default.removeItem(at: url) }
    let state = try assertReplay(fixture: url, registry: .todos(), equals: final)
    #expect(state == final)
    var wrong = final
    wrong.nextID += 1
    try withKnownIssue {
      try assertReplay(fixture: url, registry: .todos(), equals: wrong)
    } matching: { issue in
      String(describing: issue).contains("nextID")
    }
  }

  @Test("assertReplay(…matches:) without an initial state starts from the first checkpoint too")
  func assertReplayMatchesFromTheFirstCheckpoint() throws {
    let (log, final) = try startedAppSession()
    let url = FileManager.default.temporaryDirectory
      .appendingPathComponent("started-app-\(UUID().uuidString).jsonl")
    try log.write(to: url)
    defer { try? FileManager.default.removeItem(at: url) }
    let open = try #require(OpenTodos(state: final))
    // The state before the recorder attached ("launch") is in the replayed state it returns.
    let state = try assertReplay(fixture: url, registry: .todos(), matches: open)
    #expect(state == final)
    #expect(state?.labels.contains("launch") == true)
    try withKnownIssue {
      try assertReplay(fixture: url, registry: .todos(), matches: OpenTodos(titles: ["tea"]))
    } matching: { issue in
      String(describing: issue).contains("the replayed OpenTodos differs")
    }
  }
}
