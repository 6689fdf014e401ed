import Synchronization
import TerminalKit
import Testing

@testable import TodoCore

/// A storage whose reads or changes fail, with a chosen error, while one is set.
private final class FailingOnDemandStorage: TodoStorage {
  let base: InMemoryTodoStorage
  private let loadFailure = Mutex<StorageError?>(nil)
  private let changeFailure = Mutex<StorageError?>(nil)

  init(_ base: InMemoryTodoStorage) {
    self.base = base
  }

  /// The error every read fails with, or `nil` for reads that work.
  var failingLoads: StorageError? {
    get { loadFailure.withLock { $0 } }
    set { loadFailure.withLock { $0 = newValue } }
  }

  /// The error every change fails with, or `nil` for changes that work.
  var failingChanges: StorageError? {
    get { changeFailure.withLock { $0 } }
    set { changeFailure.withLock { $0 = newValue } }
  }

  func load() throws -> AppState {
    if let failingLoads { throw failingLoads }
    return try base.load()
  }

  func history() throws -> [JournalEntry] { try base.history() }

  func store(_ decide: @escaping @Sendable (AppState) throws -> AnyTodoChange?) async throws
    -> StoredChange?
  {
    if let failingChanges { throw failingChanges }
    return try await base.store(decide)
  }

  func undo() async throws -> UndoResult? {
    if let failingChanges { throw failingChanges }
    return try await base.undo()
  }

  func changes(since revision: StorageRevision?) async throws -> StoredState? {
    if let failingLoads { throw failingLoads }
    return try await base.changes(since: revision)
  }
}

@MainActor
@Suite("Terminal UI: a store that fails says so on the status line")
struct StorageFailureTests {
  @Test("A reload that fails keeps the todos last shown and says why, until a reload works")
  func failedReload() async throws {
    let base = storage(titles: ["Buy milk"])
    let storage = FailingOnDemandStorage(base)
    let ui = try await TerminalUIHarness(storage: storage, width: 120)
    try await base.apply([.addTodo(AddTodo(id: 2, title: "Other process"))])
    storage.failingLoads = .systemCall(
      operation: "open", path: "/store/journal.jsonl", reason: "No such file or directory")
    #expect(await ui.refresh(), "the message is drawn")
    #expect(ui.line(containing: "Buy milk") != nil)
    #expect(ui.line(containing: "Other process") == nil)
    let message = try #require(ui.state.statusLine.message)
    #expect(message.hasPrefix("Cannot reload, showing the todos as last read: "))
    #expect(message.contains("cannot open /store/journal.jsonl: No such file or directory"))
    #expect(ui.text.contains("Cannot reload"))
    #expect(await ui.refresh() == false, "the same failure again draws nothing new")
    storage.failingLoads = nil
    #expect(await ui.refresh())
    #expect(ui.line(containing: "Other process") != nil)
    #expect(ui.state.statusLine.message == nil, "the failure is over")
  }

  @Test("A save left in doubt says what exit status 4 says, and one that failed says so")
  func saveInDoubt() async throws {
    let storage = FailingOnDemandStorage(storage(titles: ["Buy milk"]))
    let ui = try await TerminalUIHarness(storage: storage, width: 80)
    storage.failingChanges = StorageError.systemCall(
      operation: "sync", path: "/store/journal.jsonl", reason: "Input/output error"
    ).uncertain(
      rollback: .systemCall(
        operation: "sync", path: "/store/journal.jsonl", reason: "Input/output error"))
    await ui.press(.character("a"))
    await ui.type("Read a book")
    await ui.press(.enter)
    let advice = try #require(ExitCode.unknown.advice)
    let message = try #require(ui.state.statusLine.message)
    #expect(message.hasPrefix(advice), "\(message)")
    #expect(message.contains("cutting the journal back failed too"))
    #expect(ui.text.contains("Cannot tell whether the change was saved"))

    await ui.press(.escape)
    storage.failingChanges = .systemCall(
      operation: "write", path: "/store/journal.jsonl", reason: "No space left on device")
    await ui.press(.character("d"))
    await ui.press(.character("y"))
    let refused = try #require(ui.state.statusLine.message)
    #expect(refused.hasSuffix("Nothing was changed."), "\(refused)")
    #expect(!refused.contains("Cannot tell"))
  }
}
