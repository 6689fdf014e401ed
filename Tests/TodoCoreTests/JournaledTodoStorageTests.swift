import Foundation
import StatePersistence
import Testing

@testable import TodoCore

/// The todo app's storage on the StatePersistence module: what the app adds to the module's own
/// guarantees (which StatePersistenceTests prove): an empty store, undo, damage in the app's
/// words, and the upgrade of stores written before the module.
@MainActor
@Suite("The journaled todo store: history, undo, damage, and the upgrade from journal.jsonl")
struct JournaledTodoStorageTests {
  static let adds: [AnyTodoChange] = (1...5).map { (id: Int) -> AnyTodoChange in
    .addTodo(AddTodo(id: id, title: "todo \(id)"))
  }

  static let fixtures = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
    .deletingLastPathComponent().appendingPathComponent("TodoCLITests/Fixtures")

  @Test("A missing directory loads as an empty list, is not created by reading, and is by a change")
  func emptyStore() async throws {
    let directory = try StoreDirectory()
    let path = directory.path + "/nested/store"
    let storage = JournaledTodoStorage(directory: path)
    #expect(try await storage.load() == AppState())
    #expect(try await storage.history().isEmpty)
    #expect(!FileManager.default.fileExists(atPath: path))
    try await storage.apply(Self.adds)
    #expect(try await storage.load().todos.map(\.id) == [1, 2, 3, 4, 5])
    #expect(try await storage.history().map(\.seq) == [1, 2, 3, 4, 5])
    await storage.close()
  }

  @Test("Snapshots compact the journal, history still reaches the first change, undo too")
  func compactionKeepsHistory() async throws {
    let directory = try StoreDirectory()
    let storage = JournaledTodoStorage(directory: directory.path, snapshotInterval: 2)
    try await storage.apply(Self.adds + [.setDone(SetDone(id: 2, done: true))])
    await storage.close()
    #expect(FileManager.default.fileExists(atPath: directory.snapshot))
    let reopened = JournaledTodoStorage(directory: directory.path, snapshotInterval: 2)
    let history = try await reopened.history()
    #expect(history.map(\.seq) == Array(1...6))
    var replayed = AppState()
    for entry in history { entry.change.apply(to: &replayed) }
    #expect(try await reopened.load() == replayed)
    for expected in [6, 5, 4, 3, 2, 1] {
      #expect(try await reopened.undo()?.undone.seq == expected)
    }
    #expect(try await reopened.undo() == nil, "everything is undone")
    #expect(try await reopened.load().todos.isEmpty)
    await reopened.close()
  }

  @Test("Bad JSON inside the journal is damage naming the file and the line; nothing is written")
  func damagedLine() async throws {
    let directory = try StoreDirectory()
    let storage = JournaledTodoStorage(directory: directory.path)
    try await storage.apply(Self.adds)
    await storage.close()
    var text = String(decoding: try directory.read(directory.journal), as: UTF8.self)
    text = text.replacingOccurrences(of: #"{"seq":3,"type""#, with: #"{"seq":3,"tpe""#)
    try directory.write(Data(text.utf8), to: directory.journal)
    let before = try directory.contents()
    let damaged = JournaledTodoStorage(directory: directory.path)
    for attempt in 0..<2 {
      do {
        if attempt == 0 {
          _ = try await damaged.load()
        } else {
          try await damaged.apply([.addTodo(AddTodo(id: 6, title: "six"))])
        }
        Issue.record("the damage was not reported")
      } catch let error as StorageError {
        guard case .damaged(let path, let line, _) = error else {
          Issue.record("\(error)")
          continue
        }
        #expect(path == directory.journal)
        #expect(line == 4)
        #expect("\(error)".contains("journal-1.jsonl:4"))
      }
    }
    #expect(try directory.contents() == before, "nothing was written")
    await damaged.close()
  }

  @Test(
    "A store written by todo-cli 0.1.0 is upgraded in place: the journal renamed, history whole",
    arguments: ["store-0.1.0-journal-only", "store-0.1.0-with-snapshot"])
  func upgrade(fixture: String) async throws {
    let directory = try StoreDirectory()
    let path = directory.path + "/store"
    try FileManager.default.copyItem(
      at: Self.fixtures.appendingPathComponent(fixture), to: URL(fileURLWithPath: path))
    let legacy = try Data(contentsOf: URL(fileURLWithPath: path + "/journal.jsonl"))
    let storage = JournaledTodoStorage(directory: path)
    let state = try await storage.load()
    let names = try FileManager.default.contentsOfDirectory(atPath: path).sorted()
    #expect(names == ["journal-1.jsonl", "lock", "snapshot.json"], "the old files are gone")
    let snapshot = try String(contentsOfFile: path + "/snapshot.json", encoding: .utf8)
    #expect(
      snapshot.contains("\"seq\":\(try await storage.history().count)"), "\(snapshot.prefix(80))")
    #expect(try Data(contentsOf: URL(fileURLWithPath: path + "/journal-1.jsonl")) == legacy)
    let history = try await storage.history()
    #expect(history.first?.seq == 1)
    var replayed = AppState()
    for entry in history { entry.change.apply(to: &replayed) }
    #expect(replayed == state)
    try await storage.apply([.addTodo(AddTodo(id: state.nextID, title: "after"))])
    #expect(try await storage.undo()?.undone.seq == history.count + 1)
    await storage.close()
  }

  @Test("An upgrade cut short after its rename (the old snapshot left) finishes on the next open")
  func upgradeCutShort() async throws {
    let directory = try StoreDirectory()
    let path = directory.path + "/store"
    try FileManager.default.copyItem(
      at: Self.fixtures.appendingPathComponent("store-0.1.0-with-snapshot"),
      to: URL(fileURLWithPath: path))
    try FileManager.default.moveItem(
      atPath: path + "/journal.jsonl", toPath: path + "/journal-1.jsonl")
    let storage = JournaledTodoStorage(directory: path)
    let state = try await storage.load()
    #expect(!state.todos.isEmpty)
    #expect(!FileManager.default.fileExists(atPath: path + "/snapshot"))
    await storage.close()
  }

  @Test("A store holding both layouts' journals is refused as damaged, and left as it is")
  func bothLayouts() async throws {
    let directory = try StoreDirectory()
    let storage = JournaledTodoStorage(directory: directory.path)
    try await storage.apply(Self.adds)
    await storage.close()
    try directory.write(
      try directory.read(directory.journal), to: directory.path + "/journal.jsonl")
    let before = try directory.contents()
    await #expect(throws: StorageError.self) {
      try await JournaledTodoStorage(directory: directory.path).load()
    }
    #expect(try directory.contents() == before)
  }

  @Test("The snapshot's fast reading gives what JSONDecoder gives, and refuses what it refuses")
  func snapshotReading() throws {
    var state = AppState()
    let adds = [
      AddTodo(id: 1, title: "a\tb \"quoted\" \\ é 😀", tags: ["x\\y", "Home", ""], priority: .high),
      AddTodo(id: Int.max - 1, title: "", due: CalendarDate("2026-02-28"), priority: .low),
      AddTodo(id: -12, title: "\u{1B}[2J", tags: ["work"], due: CalendarDate("9999-12-31")),
    ]
    for add in adds { add.updateState(&state) }
    SetDone(id: -12, done: true).updateState(&state)
    let encoder = JSONEncoder()
    encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
    let line = Array(try encoder.encode(state))
    let expected = try JSONDecoder().decode(AppState.self, from: Data(line))
    #expect(try AppState(snapshotJSON: line[...]) == expected)
    #expect(expected.todos.count == 3)
    let handWritten = #"""
       { "todos" : [ {"done":true, "extra":{"a":[1,2.5e3,null,"x"]}, "title":"caf\u00e9 \ud83d\ude00 \n\/",
      "id":7, "tags":null, "due":null, "priority":null} ], "nextID" : 8, "more": -1.5 }
      """#
    let fromDecoder = try JSONDecoder().decode(AppState.self, from: Data(handWritten.utf8))
    #expect(try AppState(snapshotJSON: Array(handWritten.utf8)[...]) == fromDecoder)
    #expect(fromDecoder.todos.first?.title == "café 😀 \n/")
    for bad in [
      #"{"nextID":2,"todos":[{"id":1,"title":"a","done":false,"due":"2026-02-30"}]}"#,
      #"{"nextID":2,"todos":[{"id":1,"title":"a","done":"no"}]}"#,
      #"{"nextID":2.5,"todos":[]}"#,
      #"{"nextID":2,"todos":[{"id":1,"title":"a","done":false,"priority":"urgent"}]}"#,
      #"{"nextID":2,"todos":[{"title":"a","done":false}]}"#,
      #"{"nextID":2,"todos":{}}"#,
      #"{"nextID":99999999999999999999,"todos":[]}"#,
      #"{"nextID":2,"todos":[{"id":1,"title":"\ud800","done":false}]}"#,
      #"{"nextID":2,"todos":[{"id":1,"title":"a"#,
      #"{"nextID":2,"todos":[]} x"#,
    ] {
      #expect(throws: (any Error).self, "\(bad)") {
        try JSONDecoder().decode(AppState.self, from: Data(bad.utf8))
      }
      #expect(throws: SnapshotShapeError.self, "\(bad)") {
        try AppState(snapshotJSON: Array(bad.utf8)[...])
      }
    }

  }

  @Test("A symbolic link planted at snapshot.json.tmp is removed, never written through")
  func plantedTemporaryLink() async throws {
    let directory = try StoreDirectory()
    let victim = directory.path + "/victim"
    try directory.write(Data("precious".utf8), to: victim)
    let store = directory.path + "/store"
    let storage = JournaledTodoStorage(directory: store, snapshotInterval: 2)
    try await storage.apply(Array(Self.adds.prefix(2)))
    await storage.close()
    try FileManager.default.createSymbolicLink(
      atPath: store + "/snapshot.json.tmp", withDestinationPath: victim)
    // Two entries are due a snapshot: the next change carries it.
    let next = JournaledTodoStorage(directory: store, snapshotInterval: 2)
    try await next.apply([Self.adds[2]])
    await next.close()
    #expect(try directory.read(victim) == Data("precious".utf8))
    #expect(!FileManager.default.fileExists(atPath: store + "/snapshot.json.tmp"))
    let snapshot = try FileManager.default.attributesOfItem(atPath: store + "/snapshot.json")
    #expect(snapshot[.type] as? FileAttributeType == .typeRegular)
    #expect(try await JournaledTodoStorage(directory: store).load().todos.count == 3)
  }

  @Test("A journal segment that is a symbolic link is not followed: an error, its target kept")
  func linkedJournal() async throws {
    let directory = try StoreDirectory()
    let store = directory.path + "/store"
    let first = JournaledTodoStorage(directory: store)
    try await first.apply([Self.adds[0]])
    await first.close()
    try FileManager.default.moveItem(
      atPath: store + "/journal-1.jsonl", toPath: directory.path + "/j")
    try FileManager.default.createSymbolicLink(
      atPath: store + "/journal-1.jsonl", withDestinationPath: directory.path + "/j")
    let target = try directory.read(directory.path + "/j")
    let storage = JournaledTodoStorage(directory: store)
    await #expect { try await storage.load() } throws: { "\($0)".contains("symbolic link") }
    await #expect(throws: StorageError.self) { try await storage.apply([Self.adds[1]]) }
    #expect(try directory.read(directory.path + "/j") == target)
    await storage.close()
  }

  @Test("A snapshot claiming entry Int.max is damage, reported before anything is written")
  func snapshotAtIntMax() async throws {
    let directory = try StoreDirectory()
    try JournaledStore<AppState, Void>.writeSnapshot(
      AppState(), at: Int.max, directory: directory.path, system: POSIXCalls())
    let before = try directory.contents()
    let storage = JournaledTodoStorage(directory: directory.path)
    await #expect(throws: StorageError.self) { try await storage.load() }
    await #expect(throws: StorageError.self) { try await storage.apply([Self.adds[0]]) }
    #expect(try directory.contents().filter { $0.key != "lock" } == before)
    await storage.close()
  }

  @Test("The last entry number is written and read; the change after it fails and changes nothing")
  func sequenceLimit() async throws {
    let directory = try StoreDirectory()
    // The snapshot covers every entry but the last one a journal can number.
    try JournaledStore<AppState, Void>.writeSnapshot(
      AppState(), at: Int.max - 2, directory: directory.path, system: POSIXCalls())
    let storage = JournaledTodoStorage(directory: directory.path)
    try await storage.apply([Self.adds[0]])
    await storage.close()
    let reopened = JournaledTodoStorage(directory: directory.path)
    #expect(try await reopened.load().todos.map(\.id) == [1], "entry Int.max - 1 reads back")
    let before = try directory.contents().filter { $0.key != "lock" }
    await #expect { try await reopened.apply([Self.adds[1]]) } throws: { error in
      "\(error)".contains("numbering is used up")
    }
    #expect(try directory.contents().filter { $0.key != "lock" } == before)
    #expect(try await reopened.load().todos.map(\.id) == [1], "the refused change is taken back")
    await reopened.close()
  }
}
