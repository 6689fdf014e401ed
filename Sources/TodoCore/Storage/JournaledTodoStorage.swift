import ActionLog
import Foundation
import StatePersistence
import StateStore

#if canImport(Darwin)
  import Darwin
#elseif canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#endif

/// The todo store on disk: the StatePersistence module's journaled store, in one directory.
///
/// The module keeps the files (see `JournaledStore`): `journal-N.jsonl`, the action log of
/// every change in order, kept whole (`keepsFullHistory`) so that `history` and `undo` reach
/// back to the first change; `snapshot.json`, the state every ``snapshotInterval`` entries, so
/// that opening reads it and the entries after it; and `lock`, taken with `flock` by the process
/// writing. Its guarantees are the app's: a change is durable when ``store(_:)`` returns, or
/// nothing of it is stored; a torn last line (a process killed mid-write, a power cut's NUL
/// tail) is not damage; other damage is reported naming the file and the line, and nothing is
/// written; files are 0600 and directories 0700.
///
/// What stays the app's own: the store's directory, the upgrade of a store written before the
/// module (``LegacyStoreUpgrade``), and the errors in the app's words (``StorageError``).
///
/// Commands open the journaled store for one change and close it; the terminal UI keeps it open,
/// and the module's polling applies what other processes store (``changes(since:)``).
@MainActor
final class JournaledTodoStorage: TodoStorage {
  /// The store's directory.
  nonisolated let directory: String
  /// How many journal entries may follow the snapshot before a new one is taken.
  let snapshotInterval: Int
  /// How often, while open, the directory is read for other processes' changes; `nil` never.
  let pollInterval: Duration?
  /// The clock ``pollInterval`` is measured on; tests advance one by hand.
  let pollClock: any Clock<Duration>
  /// The clock whose time the journal's entries are stamped with.
  let clock: TodoClock
  /// Told, with the directory, when the lock has been waited for about a second.
  var announceLockWait: (@Sendable (String) -> Void)?
  /// The calls that reach the disk.
  private let system: any SystemCalls

  private var opening: Task<JournaledStore<AppState, Void>, any Error>?
  private var listener: Subscription?
  private var failureWatch: Task<Void, Never>?
  /// How many changes the open store applied, its own and other processes'.
  private var heard = 0
  /// Whether the module reported a failure since ``changes(since:)`` last read the journal.
  private var failedSinceLastLook = false
  /// The open store's state after the last update it applied.
  private var latestState = AppState()
  /// Tasks waiting in ``waitUntilHeard(_:)``, with the count each waits for.
  private var waiters: [(count: Int, continuation: CheckedContinuation<Void, Never>)] = []
  /// The last change this process applied, with the state it was applied to.
  private var lastOwnChange: (before: AppState, change: AnyTodoChange?)?

  /// Creates the storage for `directory`, which is created by the first change.
  ///
  /// - Parameters:
  ///   - pollInterval: How often an open store reads what other processes stored, for the
  ///     terminal UI; `nil` (for a command) never.
  /// Creates the storage for `directory` on `system`'s calls.
  init(
    directory: String, clock: TodoClock = .system, snapshotInterval: Int = 200,
    pollInterval: Duration? = nil, pollClock: any Clock<Duration> = ContinuousClock(),
    system: any SystemCalls = POSIXCalls()
  ) {
    self.pollClock = pollClock
    self.directory =
      directory.count > 1 && directory.hasSuffix("/") ? String(directory.dropLast()) : directory
    self.clock = clock
    self.snapshotInterval = max(1, snapshotInterval)
    self.pollInterval = pollInterval
    self.system = system
  }

  isolated deinit {
    failureWatch?.cancel()
  }

  /// The latest stored state: the open store's, brought up to date with what other processes
  /// stored, or else read from the directory without writing anything; an empty list if there
  /// is no store yet.
  ///
  /// A file of the store that is there but cannot be read throws: a failed read never passes
  /// for an empty store.
  ///
  /// - Complexity: O(todos + entries since the snapshot).
  func load() async throws -> AppState {
    if let opening {
      let journaled = try await opening.value
      try await StorageError.translating { () async throws(PersistenceError) in
        try await journaled.catchUp()
      }
      return journaled.store.state
    }
    guard Self.exists(directory) else { return AppState() }
    try await upgradeIfNeeded()
    let recovered = try await StorageError.translating { () async throws(PersistenceError) in
      try await JournaledStore<AppState, Void>.read(
        directory: directory, registry: TodoActionLog.makeRegistry(), system: system)
    }
    if let damage = recovered.damage { throw StorageError(damage) }
    return recovered.state
  }

  /// Every journaled change, oldest first.
  ///
  /// - Complexity: O(journal length).
  func history() async throws -> [JournalEntry] {
    guard opening != nil || Self.exists(directory) else { return [] }
    let journaled = try await open()
    let history = try await StorageError.translating { () async throws(PersistenceError) in
      try await journaled.history()
    }
    return history.compactMap(JournalEntry.init)
  }

  /// Stores the change `decide` makes of the latest stored state, under the directory's
  /// exclusive lock, and returns once it is durable.
  @discardableResult
  func store(_ decide: @escaping @Sendable (AppState) throws -> AnyTodoChange?) async throws
    -> StoredChange?
  {
    let journaled = try await open()
    let clock = clock
    do {
      return try await journaled.withExclusiveAccess { () throws -> StoredChange? in
        let before = journaled.store.state
        guard let change = try decide(before) else { return nil }
        change.dispatch(to: journaled.store)
        let entry = JournalEntry(seq: journaled.lastSequence, change: change, time: clock.now())
        return StoredChange(before: before, entry: entry)
      }
    } catch let error as PersistenceError {
      throw StorageError(error)
    }
  }

  /// Reverts the newest change that can be undone, with the module's `undo()`: its inverse is
  /// journaled, marked with the entry it reverts.
  ///
  /// - Complexity: O(journal length): the journal is replayed from its first entry.
  func undo() async throws -> UndoResult? {
    let journaled = try await open()
    lastOwnChange = nil
    let undone = try await StorageError.translating { () async throws(PersistenceError) in
      try await journaled.undo()
    }
    // The module's undo applied the inverse from this process, which the listener saw.
    guard let undone = undone.flatMap(JournalEntry.init), let applied = lastOwnChange,
      let inverse = applied.change
    else { return nil }
    let revert = JournalEntry(
      seq: journaled.lastSequence, change: inverse, undoes: undone.seq, time: clock.now())
    return UndoResult(undone: undone, revert: revert, before: applied.before)
  }

  /// The open store's state, when it applied anything since `revision`: its own changes and
  /// those the module's polling heard from other processes.
  ///
  /// After the module reported a failure (a poll that could not read the journal), the journal
  /// is read again here, and a failure is thrown until a read works.
  func changes(since revision: StorageRevision?) async throws -> StoredState? {
    let journaled = try await open()
    if failedSinceLastLook {
      try await StorageError.translating { () async throws(PersistenceError) in
        try await journaled.catchUp()
      }
      failedSinceLastLook = false
    }
    let current = StorageRevision(count: heard)
    guard current != revision else { return nil }
    return StoredState(revision: current, state: journaled.store.state)
  }

  /// Flushes and closes the open store, if any, releasing the directory.
  func close() async {
    guard let opening else { return }
    self.opening = nil
    failureWatch?.cancel()
    listener?.cancel()
    // Every change was flushed by `store(_:)` or `undo()` before it returned.
    try? await opening.value.close()
  }

  /// The journaled store, opened on the first call.
  private func open() async throws -> JournaledStore<AppState, Void> {
    if let opening { return try await opening.value }
    try await upgradeIfNeeded()
    var options = JournalOptions(snapshotInterval: snapshotInterval)
    options.keepsFullHistory = true
    options.pollInterval = pollInterval
    options.clock = pollClock
    options.now = clock.now
    let directory = directory
    if let announce = announceLockWait {
      options.onLockWait = { @Sendable _ in announce(directory) }
    }
    let system = system
    let task = Task { () async throws -> JournaledStore<AppState, Void> in
      try await StorageError.translating { () async throws(PersistenceError) in
        try await JournaledStore<AppState, Void>.open(
          directory: directory, dependencies: (), registry: TodoActionLog.makeRegistry(),
          options: options, system: system)
      }
    }
    opening = task
    let journaled: JournaledStore<AppState, Void>
    do {
      journaled = try await task.value
    } catch {
      opening = nil
      throw error
    }
    // A failed write reaches a command as the error its change throws, and the terminal UI
    // through `failures` (see `changes(since:)`): not as a line on standard error.
    journaled.store.onUnhandledError = { _, _ in }
    latestState = journaled.store.state
    listener = journaled.store.observeUpdates {
      [weak self, weak journaled] (update: AppliedUpdate<AppState>) in
      guard let self, let journaled else { return }
      heard += 1
      if journaled.origin == .thisProcess {
        lastOwnChange = (latestState, (update.updater as? any TodoChange)?.erased)
      }
      latestState = journaled.store.state
      resumeWaiters()
    }
    let failures = journaled.failures
    failureWatch = Task { [weak self] in
      for await _ in failures { self?.failedSinceLastLook = true }
    }
    return journaled
  }

  /// Returns once the open store has applied `count` updates since it was opened, its own and
  /// other processes': how a test awaits what the module's polling hears.
  func waitUntilHeard(_ count: Int) async {
    guard heard < count else { return }
    await withCheckedContinuation { waiters.append((count, $0)) }
  }

  private func resumeWaiters() {
    let ready = waiters.filter { $0.count <= heard }
    waiters.removeAll { $0.count <= heard }
    for waiter in ready { waiter.continuation.resume() }
  }

  /// Moves a store written before the module to its layout, if the directory holds one.
  private func upgradeIfNeeded() async throws(StorageError) {
    try await LegacyStoreUpgrade(
      directory: directory, system: system, announceLockWait: announceLockWait
    ).upgradeIfNeeded()
  }

  /// Whether something exists at `path`, asked of the operating system directly.
  nonisolated static func exists(_ path: String) -> Bool {
    access(path, F_OK) == 0
  }
}
