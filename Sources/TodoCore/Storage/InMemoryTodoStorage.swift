import Synchronization

/// A ``TodoStorage`` that keeps the journal in memory: for tests and previews.
final class InMemoryTodoStorage: TodoStorage {
  private let journal: Mutex<[JournalEntry]>
  private let access = AsyncLock()

  /// Creates a storage holding `entries`.
  init(entries: [JournalEntry] = []) {
    journal = Mutex(entries)
  }

  /// The journaled entries, oldest first.
  var entries: [JournalEntry] { journal.withLock { $0 } }

  /// The state the entries add up to.
  ///
  /// - Complexity: O(entries).
  func load() throws -> AppState {
    var state = AppState()
    for entry in entries { entry.change.apply(to: &state) }
    return state
  }

  /// The journaled entries, oldest first.
  func history() throws -> [JournalEntry] { entries }

  /// Runs `body` with exclusive access to the journal.
  @discardableResult
  func withExclusiveAccess<R: Sendable>(
    _ body: (any StorageTransaction) async throws -> R
  ) async throws -> R {
    await access.lock()
    defer { access.unlock() }
    let transaction = Transaction(storage: self, state: try load())
    return try await body(transaction)
  }

  private final class Transaction: StorageTransaction {
    let storage: InMemoryTodoStorage
    var state: AppState

    init(storage: InMemoryTodoStorage, state: AppState) {
      self.storage = storage
      self.state = state
    }

    func lastUndoableEntry() throws -> JournalEntry? {
      var scanner = UndoScanner()
      for entry in storage.entries.reversed() {
        if let found = scanner.visit(entry) { return found }
      }
      return nil
    }

    func append(_ drafts: [JournalDraft]) throws -> [JournalEntry] {
      storage.journal.withLock { journal in
        let written = drafts.enumerated().map { offset, draft in
          JournalEntry(seq: journal.count + offset + 1, draft: draft)
        }
        journal += written
        for entry in written { entry.change.apply(to: &state) }
        return written
      }
    }
  }
}

/// A lock that tasks await instead of blocking a thread.
final class AsyncLock: Sendable {
  private struct Waiters {
    var isLocked = false
    var queue: [CheckedContinuation<Void, Never>] = []
  }
  private let waiters = Mutex(Waiters())

  func lock() async {
    await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
      let acquired = waiters.withLock { waiters in
        if waiters.isLocked {
          waiters.queue.append(continuation)
          return false
        }
        waiters.isLocked = true
        return true
      }
      if acquired { continuation.resume() }
    }
  }

  func unlock() {
    let next = waiters.withLock { waiters -> CheckedContinuation<Void, Never>? in
      if waiters.queue.isEmpty {
        waiters.isLocked = false
        return nil
      }
      return waiters.queue.removeFirst()
    }
    next?.resume()
  }
}
