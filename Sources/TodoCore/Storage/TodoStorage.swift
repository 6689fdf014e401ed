/// Where the todos live between runs: the dependency that the storage side effects use.
///
/// The app's side effects reach storage only through this protocol, so tests swap in an
/// ``InMemoryTodoStorage`` or a fake that fails on purpose. ``FileTodoStorage`` is the real one.
protocol TodoStorage: Sendable {
  /// The latest stored state.
  func load() throws -> AppState

  /// Every journaled change, oldest first.
  ///
  /// - Complexity: O(journal length).
  func history() throws -> [JournalEntry]

  /// Runs `body` while no other process or task can change the store, with the latest stored
  /// state; what `body` appends is durable when this method returns.
  @discardableResult
  func withExclusiveAccess<R: Sendable>(
    _ body: (any StorageTransaction) async throws -> R
  ) async throws -> R
}

/// What a store's files looked like at one moment: when it differs from an earlier stamp,
/// something was stored in between.
struct StorageStamp: Hashable, Sendable {
  /// Sizes and modification times of the files that a change touches.
  var parts: [Int]
}

extension TodoStorage {
  /// A stamp that changes whenever something is stored, or `nil` when the storage cannot tell
  /// cheaply, in which case a caller that watches for changes loads the state to see.
  func modificationStamp() -> StorageStamp? { nil }
}

/// Exclusive access to the store, handed to the body of ``TodoStorage/withExclusiveAccess(_:)``.
protocol StorageTransaction: AnyObject {
  /// The state as stored, including what this transaction appended so far.
  var state: AppState { get }

  /// The newest entry that `undo` can still revert: neither written by `undo` nor already
  /// undone. `nil` when there is nothing left to undo.
  ///
  /// - Complexity: O(entries after it) in the usual case; O(journal length) at most.
  func lastUndoableEntry() throws -> JournalEntry?

  /// Appends `drafts` to the journal, durably, numbering them after the last entry.
  ///
  /// - Returns: The entries as written.
  @discardableResult
  func append(_ drafts: [JournalDraft]) throws -> [JournalEntry]
}

/// Finds the entry `undo` reverts next, given entries from the newest backwards.
///
/// An entry written by `undo` marks the entry it undid; the first entry that is neither an undo
/// nor marked is the answer.
struct UndoScanner {
  private var undone = Set<Int>()

  /// Looks at the next older entry; returns it if it is the one to undo.
  mutating func visit(_ entry: JournalEntry) -> JournalEntry? {
    if let target = entry.undoes {
      undone.insert(target)
      return nil
    }
    if undone.remove(entry.seq) != nil { return nil }
    return entry.inverse == nil ? nil : entry
  }
}
