import ActionLog
import Foundation
import StateStore
import StateStoreTesting
import Testing

@Suite("Several recorders on one log file")
@MainActor
struct SharedLogTests {
  @Test("Recorders writing one file in turn number every entry once, after one header")
  func interleavedRecorders() throws {
    let directory = try TemporaryDirectory()
    let url = directory.file("shared.jsonl")
    let stores = (0..<3).map { _ in Store<TodoState, Void>() }
    let recorders = try stores.map { store in
      try ActionRecorder(store: store, registry: .todos(), destination: .file(url))
    }
    var titles: [String] = []
    for round in 1...5 {
      for (writer, store) in stores.enumerated() {
        let title = "writer \(writer) round \(round)"
        titles.append(title)
        store.dispatch(AddTodo(title: title))
      }
    }
    for recorder in recorders { try recorder.stop() }
    let text = lines(of: try Data(contentsOf: url))
    #expect(text.count == 16, "a header and 15 entries")
    #expect(text.first?.hasPrefix(#"{"format":"statestore-action-log""#) == true)
    #expect(text.filter { $0.hasPrefix(#"{"format""#) }.count == 1)
    let entries = text.dropFirst().map { line in
      (try? JSONSerialization.jsonObject(with: Data(line.utf8))) as? [String: Any]
    }
    #expect(entries.map { $0?["seq"] as? Int } == Array(1...15))
    let logged = entries.map { ($0?["payload"] as? [String: Any])?["title"] as? String }
    #expect(logged == titles)
  }

  @Test(
    "Recorders of effects writing one file number every effect once, after the others' effects"
  )
  func interleavedEffectRecorders() async throws {
    let directory = try TemporaryDirectory()
    let url = directory.file("shared.jsonl")
    let stores = (0..<2).map { _ in
      Store(
        initialState: TodoState(),
        dependencies: SearchDependencies(clock: TestClock(), search: { ["\($0) found"] }))
    }
    let recorders = try stores.map { store in
      try ActionRecorder(
        store: store, registry: ActionLogRegistry<TodoState>.todos().registerEffect(LookUp.self),
        destination: .file(url), options: ActionRecorder.Options(recordsEffects: true))
    }
    for round in 1...2 {
      for (writer, store) in stores.enumerated() {
        try await store.dispatch(LookUp(query: "writer \(writer) round \(round)"))
      }
    }
    for recorder in recorders { try recorder.stop() }
    let objects = lines(of: try Data(contentsOf: url)).map { line in
      (try? JSONSerialization.jsonObject(with: Data(line.utf8))) as? [String: Any]
    }
    let started = objects.compactMap { $0?["start"] != nil ? $0?["effect"] as? Int : nil }
    #expect(started == [1, 2, 3, 4], "each effect has a number of its own")
    // Each entry names the effect that dispatched it: its own writer's, whose query it found.
    let startedQueries = Dictionary(
      objects.compactMap { object -> (Int, String)? in
        guard let object, object["start"] != nil, let number = object["effect"] as? Int,
          let query = (object["payload"] as? [String: Any])?["query"] as? String
        else { return nil }
        return (number, query)
      }, uniquingKeysWith: { first, _ in first })
    for object in objects {
      guard let object, let effect = object["effect"] as? Int, object["seq"] != nil,
        let title = (object["payload"] as? [String: Any])?["title"] as? String
      else { continue }
      #expect(title == "\(startedQueries[effect] ?? "?") found")
    }
  }

  @Test("A recorder opened on a log another recorder is writing appends after its entries")
  func openedWhileAnotherWrites() throws {
    let directory = try TemporaryDirectory()
    let url = directory.file("shared.jsonl")
    let first = Store<TodoState, Void>()
    let firstRecorder = try ActionRecorder(
      store: first, registry: .todos(), destination: .file(url))
    first.dispatch(AddTodo(title: "a"))
    let second = Store<TodoState, Void>()
    let secondRecorder = try ActionRecorder(
      store: second, registry: .todos(), destination: .file(url))
    first.dispatch(AddTodo(title: "b"))
    second.dispatch(AddTodo(title: "c"))
    first.dispatch(AddTodo(title: "d"))
    try secondRecorder.stop()
    try firstRecorder.stop()
    #expect(
      lines(of: try Data(contentsOf: url)).dropFirst() == [
        #"{"seq":1,"type":"AddTodo","payload":{"title":"a"}}"#,
        #"{"seq":2,"type":"AddTodo","payload":{"title":"b"}}"#,
        #"{"seq":3,"type":"AddTodo","payload":{"title":"c"}}"#,
        #"{"seq":4,"type":"AddTodo","payload":{"title":"d"}}"#,
      ])
  }

  @Test(
    "Buffered recorders of one file in one process take turns: neither waits for the other's lock, and every entry is written once, in order"
  )
  func bufferedRecordersInOneProcess() throws {
    let directory = try TemporaryDirectory()
    let url = directory.file("shared.jsonl")
    let first = Store<TodoState, Void>()
    let firstRecorder = try ActionRecorder(
      store: first, registry: .todos(), destination: .file(url), options: .buffered)
    first.dispatch(AddTodo(title: "a"))
    // Opened while the first keeps the lock for its buffered line.
    let second = Store<TodoState, Void>()
    let secondRecorder = try ActionRecorder(
      store: second, registry: .todos(), destination: .file(url), options: .buffered)
    second.dispatch(AddTodo(title: "b"))
    first.dispatch(AddTodo(title: "c"))
    second.dispatch(AddTodo(title: "d"))
    // Reached through a link, the file is the same file.
    let link = directory.file("link.jsonl")
    try FileManager.default.createSymbolicLink(at: link, withDestinationURL: url)
    let third = Store<TodoState, Void>()
    let thirdRecorder = try ActionRecorder(
      store: third, registry: .todos(), destination: .file(link), options: .buffered)
    third.dispatch(AddTodo(title: "e"))
    first.dispatch(AddTodo(title: "f"))
    try firstRecorder.stop()
    try thirdRecorder.stop()
    try secondRecorder.stop()
    #expect(
      lines(of: try Data(contentsOf: url)).dropFirst() == [
        #"{"seq":1,"type":"AddTodo","payload":{"title":"a"}}"#,
        #"{"seq":2,"type":"AddTodo","payload":{"title":"b"}}"#,
        #"{"seq":3,"type":"AddTodo","payload":{"title":"c"}}"#,
        #"{"seq":4,"type":"AddTodo","payload":{"title":"d"}}"#,
        #"{"seq":5,"type":"AddTodo","payload":{"title":"e"}}"#,
        #"{"seq":6,"type":"AddTodo","payload":{"title":"f"}}"#,
      ])
  }
}
