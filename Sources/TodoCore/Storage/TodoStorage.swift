/// Where the todos live between runs: the dependency that the storage side effects use.
///
/// The app's side effects reach storage only through this protocol, so tests swap in an
/// ``InMemoryTodoStorage`` or a fake that fails on purpose. ``JournaledTodoStorage``, the
/// StatePersistence module's journaled store, is the real one.
protocol TodoStorage: Sendable {
  /// The latest stored state.
  ///
  /// - Complexity: O(todos + entries since the last snapshot) on disk.
  func load() async throws -> AppState

  /// Every journaled change, oldest first.
  ///
  /// - Complexity: O(journal length).
  func history() async throws -> [JournalEntry]

  /// Stores, durably, the change that `decide` makes of the latest stored state, while no other
  /// process or task can store anything; `decide` returns `nil` to store nothing.
  ///
  /// - Returns: The state `decide` was given and the entry as journaled, or `nil` when `decide`
  ///   chose nothing.
  /// - Throws: What `decide` throws, or a ``StorageError``; nothing is stored then.
  @discardableResult
  func store(_ decide: @escaping @Sendable (AppState) throws -> AnyTodoChange?) async throws
    -> StoredChange?

  /// Reverts the newest change that is neither a revert nor reverted already, by storing its
  /// inverse durably; `nil` when there is none.
  ///
  /// - Complexity: O(journal length).
  func undo() async throws -> UndoResult?

  /// The stored state, when it may have changed since `revision` (a value this method
  /// returned before; `nil` the first time), or `nil` when it has not: how the terminal UI
  /// shows what other processes store.
  func changes(since revision: StorageRevision?) async throws -> StoredState?

  /// Releases the store for other processes; what was stored stays stored.
  func close() async
}

/// A state read from storage, with the revision it was read at.
struct StoredState: Sendable {
  /// Compared with a later one, tells whether anything was stored in between.
  var revision: StorageRevision
  /// The stored state.
  var state: AppState
}

/// A point in a storage's life: when two differ, something may have been stored in between.
struct StorageRevision: Hashable, Sendable {
  /// How many changes the storage has heard of, its own and other processes'.
  var count: Int
}

/// A change ``TodoStorage/store(_:)`` stored, with the state it was decided on.
struct StoredChange: Sendable {
  /// The stored state the change was decided on, just before it.
  var before: AppState
  /// The change as journaled.
  var entry: JournalEntry
}

/// What `undo` did: the entry it reverted and the entry it journaled to revert it.
struct UndoResult: Sendable {
  /// The change that was reverted.
  var undone: JournalEntry
  /// The journaled revert, whose ``JournalEntry/undoes`` is `undone.seq`.
  var revert: JournalEntry
  /// The stored state the revert was applied to, just before it.
  var before: AppState
}

extension TodoStorage {
  /// The stored state every time, whatever the revision, for storages that cannot tell cheaply
  /// whether anything changed.
  func changes(since revision: StorageRevision?) async throws -> StoredState? {
    StoredState(
      revision: StorageRevision(count: (revision?.count ?? 0) + 1), state: try await load())
  }

  /// Nothing to release.
  func close() async {}
}
