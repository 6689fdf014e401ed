import Foundation
import TerminalKit
import Testing

@testable import TodoCore

@Suite("The file store: journal, snapshot, damage")
struct FileTodoStorageTests {
  static let adds: [AnyTodoChange] = (1...5).map { (id: Int) in
    .addTodo(AddTodo(id: id, title: "todo \(id)"))
  }

  @Test("A missing directory loads as an empty list and is created by the first change")
  func emptyStore() async throws {
    let directory = try StoreDirectory()
    let storage = FileTodoStorage(directory: directory.path + "/nested/store")
    #expect(try storage.load() == AppState())
    #expect(try storage.history().isEmpty)
    try await storage.apply(Self.adds)
    #expect(try storage.load().todos.map(\.id) == [1, 2, 3, 4, 5])
    #expect(try storage.history().map(\.seq) == [1, 2, 3, 4, 5])
  }

  @Test("Compaction writes a snapshot, and loading from it equals replaying the journal")
  func compaction() async throws {
    let directory = try StoreDirectory()
    let storage = FileTodoStorage(directory: directory.path, compactionInterval: 3)
    try await storage.apply(Self.adds + [.setDone(SetDone(id: 2, done: true))])
    #expect(FileManager.default.fileExists(atPath: directory.snapshot))
    let loaded = try storage.load()
    var replayed = AppState()
    for entry in try storage.history() { entry.change.apply(to: &replayed) }
    #expect(loaded == replayed)
    #expect(loaded.todos[id: 2]?.done == true)
    let reference = FileTodoStorage(directory: directory.path, compactionInterval: 1000)
    try FileManager.default.removeItem(atPath: directory.snapshot)
    #expect(try reference.load() == loaded)
  }

  @Test("A torn last line is ignored by readers and cut off by the next writer")
  func tornTail() async throws {
    let directory = try StoreDirectory()
    let storage = FileTodoStorage(directory: directory.path)
    try await storage.apply(Array(Self.adds.prefix(2)))
    let handle = try #require(FileHandle(forWritingAtPath: directory.journal))
    try handle.seekToEnd()
    try handle.write(contentsOf: Data(#"{"seq":3,"type":"AddTodo","payl"#.utf8))
    try handle.close()
    #expect(try storage.load().todos.count == 2)
    try await storage.apply([.addTodo(AddTodo(id: 9, title: "after the crash"))])
    #expect(try storage.history().map(\.seq) == [1, 2, 3])
    #expect(try storage.load().todos.map(\.id) == [1, 2, 9])
    let text = String(decoding: try directory.read(directory.journal), as: UTF8.self)
    #expect(!text.contains("payl\n") && !text.contains(#""payl{"#))
  }

  @Test("A journal whose header was cut short is an empty store, repaired by the next write")
  func tornHeader() async throws {
    let directory = try StoreDirectory()
    try directory.write(Data(#"{"format":"statestore-ac"#.utf8), to: directory.journal)
    let storage = FileTodoStorage(directory: directory.path)
    #expect(try storage.load() == AppState())
    try await storage.apply(Array(Self.adds.prefix(1)))
    #expect(try storage.load().todos.count == 1)
  }

  /// Runs every operation on a damaged store and checks each fails naming `expected`, leaving
  /// every byte as it was.
  func expectDamageReported(
    in directory: StoreDirectory, naming expected: String,
    sourceLocation: SourceLocation = #_sourceLocation
  ) async throws {
    let storage = FileTodoStorage(directory: directory.path, compactionInterval: 1)
    let before = try directory.contents()
    #expect(sourceLocation: sourceLocation) { try storage.load() } throws: { error in
      "\(error)".contains(expected)
    }
    await #expect(sourceLocation: sourceLocation) {
      try await storage.apply([.addTodo(AddTodo(id: 100, title: "x"))])
    } throws: { error in
      "\(error)".contains(expected)
    }
    #expect(try directory.contents() == before, sourceLocation: sourceLocation)
  }

  @Test("Bad JSON in the middle of the journal fails with the file and line; nothing is written")
  func damagedLine() async throws {
    let directory = try StoreDirectory()
    try await FileTodoStorage(directory: directory.path).apply(Self.adds)
    var text = String(decoding: try directory.read(directory.journal), as: UTF8.self)
    text = text.replacingOccurrences(of: #"{"seq":3,"type""#, with: #"{"seq":3,"tpe""#)
    try directory.write(Data(text.utf8), to: directory.journal)
    try await expectDamageReported(in: directory, naming: "journal.jsonl:4")
  }

  @Test("An unknown journal version fails naming it; nothing is written")
  func unknownVersion() async throws {
    let directory = try StoreDirectory()
    try await FileTodoStorage(directory: directory.path).apply(Self.adds)
    var text = String(decoding: try directory.read(directory.journal), as: UTF8.self)
    text = text.replacingOccurrences(of: #""version":1"#, with: #""version":7"#)
    try directory.write(Data(text.utf8), to: directory.journal)
    try await expectDamageReported(in: directory, naming: "unsupported version 7")
  }

  @Test("A damaged snapshot fails naming it; nothing is written")
  func damagedSnapshot() async throws {
    let directory = try StoreDirectory()
    try await FileTodoStorage(directory: directory.path, compactionInterval: 2).apply(Self.adds)
    var bytes = try directory.read(directory.snapshot)
    bytes[bytes.count / 2] ^= 0x04
    try directory.write(bytes, to: directory.snapshot)
    try await expectDamageReported(in: directory, naming: "snapshot")
  }

  @Test("A journal shorter than the snapshot says is damage, not a fresh start")
  func truncatedJournal() async throws {
    let directory = try StoreDirectory()
    try await FileTodoStorage(directory: directory.path, compactionInterval: 4).apply(Self.adds)
    let bytes = try directory.read(directory.journal)
    try directory.write(bytes.prefix(80), to: directory.journal)
    try await expectDamageReported(in: directory, naming: "journal.jsonl")
  }

  @Test("A missing journal next to a snapshot is damage")
  func missingJournal() async throws {
    let directory = try StoreDirectory()
    try await FileTodoStorage(directory: directory.path, compactionInterval: 2).apply(Self.adds)
    try FileManager.default.removeItem(atPath: directory.journal)
    try await expectDamageReported(in: directory, naming: "journal is missing")
  }

  @Test("Entries out of order are damage")
  func outOfOrder() async throws {
    let directory = try StoreDirectory()
    try await FileTodoStorage(directory: directory.path).apply(Self.adds)
    var text = String(decoding: try directory.read(directory.journal), as: UTF8.self)
    text = text.replacingOccurrences(of: #"{"seq":4,"#, with: #"{"seq":40,"#)
    try directory.write(Data(text.utf8), to: directory.journal)
    try await expectDamageReported(in: directory, naming: "expected entry 4")
  }

  @Test("The undo scan skips undo entries and the entries they undid")
  func undoScan() async throws {
    let directory = try StoreDirectory()
    let storage = FileTodoStorage(directory: directory.path)
    try await storage.apply(Array(Self.adds.prefix(3)))
    try await storage.withExclusiveAccess { transaction in
      let target = try #require(try transaction.lastUndoableEntry())
      #expect(target.seq == 3)
      try transaction.append([
        JournalDraft(change: try #require(target.inverse), inverse: nil, undoes: target.seq)
      ])
      #expect(try transaction.lastUndoableEntry()?.seq == 2)
    }
  }
}
