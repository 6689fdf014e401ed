import Synchronization

/// A ``TodoStorage`` that keeps the journal in memory: for tests and previews.
///
/// It keeps what the journaled store keeps: each change, in order, with `undoes` on a revert;
/// an inverse is computed as the change is stored, on the state it was decided on.
final class InMemoryTodoStorage: TodoStorage {
  private struct Stored {
    var entry: JournalEntry
    var inverse: AnyTodoChange?
  }

  private let journal: Mutex<[Stored]>
  private let access = AsyncLock()

  /// Creates a storage holding `changes`, in order.
  init(changes: [AnyTodoChange] = []) {
    var state = AppState()
    var stored: [Stored] = []
    for (index, change) in changes.enumerated() {
      stored.append(
        Stored(
          entry: JournalEntry(seq: index + 1, change: change),
          inverse: change.change.inverse(in: state)))
      change.apply(to: &state)
    }
    journal = Mutex(stored)
  }

  /// The journaled entries, oldest first.
  var entries: [JournalEntry] { journal.withLock { $0.map(\.entry) } }

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

  /// Stores the change `decide` makes of the state, while no other call stores.
  @discardableResult
  func store(_ decide: @escaping @Sendable (AppState) throws -> AnyTodoChange?) async throws
    -> StoredChange?
  {
    await access.lock()
    defer { access.unlock() }
    let before = try load()
    guard let change = try decide(before) else { return nil }
    return StoredChange(
      before: before, entry: append(change, inverse: change.change.inverse(in: before)))
  }

  /// Stores the inverse of the newest change that is neither a revert nor reverted.
  ///
  /// - Complexity: O(entries).
  func undo() async throws -> UndoResult? {
    await access.lock()
    defer { access.unlock() }
    var undone = Set<Int>()
    for stored in journal.withLock({ $0 }).reversed() {
      if let target = stored.entry.undoes {
        undone.insert(target)
        continue
      }
      guard undone.remove(stored.entry.seq) == nil, let inverse = stored.inverse else { continue }
      let before = try load()
      let revert = append(inverse, inverse: nil, undoes: stored.entry.seq)
      return UndoResult(undone: stored.entry, revert: revert, before: before)
    }
    return nil
  }

  /// The state, with the number of entries as its revision.
  func changes(since revision: StorageRevision?) throws -> StoredState? {
    let current = StorageRevision(count: journal.withLock { $0.count })
    guard current != revision else { return nil }
    return StoredState(revision: current, state: try load())
  }

  @discardableResult
  private func append(_ change: AnyTodoChange, inverse: AnyTodoChange?, undoes: Int? = nil)
    -> JournalEntry
  {
    journal.withLock { journal in
      let entry = JournalEntry(seq: journal.count + 1, change: change, undoes: undoes)
      journal.append(Stored(entry: entry, inverse: inverse))
      return entry
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
