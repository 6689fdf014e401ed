import ActionLog
import StateStore

extension JournaledStore {
  /// The entries of the journal after its last snapshot, oldest first, each with its cause,
  /// scope and time.
  ///
  /// History reaches back to the last snapshot: the segments a snapshot covers are removed
  /// (see ``JournalOptions/snapshotInterval``), and an upgrade to a new schema version takes a
  /// snapshot too. With ``JournalOptions/keepsFullHistory`` they are kept, and history reaches
  /// back to the journal's first entry. Every updater applied before the call is flushed first, so the history ends
  /// with the last of them (or later).
  ///
  /// - Throws: The flush's error, or a ``PersistenceError`` reading the journal.
  /// - Complexity: O(snapshot + journal after it), or O(journal) with
  ///   ``JournalOptions/keepsFullHistory``: the journal is read from the disk and decoded on
  ///   the journal's queue, and no updater is applied.
  public func history() async throws(PersistenceError) -> [HistoryEntry<S>] {
    try await readHistory().history
  }

  /// Reverts the newest updater that can be undone, by dispatching its inverse, and returns
  /// the entry it reverted; `nil` when there is none.
  ///
  /// Undo follows `todo-cli undo`: the inverse is a new entry, journaled with the cause
  /// `"undo"` and marked with the entry it reverts (``HistoryEntry/undoes``), so nothing in the
  /// journal is rewritten and the undo is itself durable history. Undoing again reverts the
  /// next older entry: entries written by undo, entries already undone, entries whose
  /// updater is no ``InvertibleUpdater`` (or was dispatched through a scope), and entries whose
  /// inverse is `nil` are passed over.
  /// There is no redo.
  ///
  /// Undo holds the directory's exclusive lock, as ``withExclusiveAccess(_:)`` does, from
  /// reading the journal until the inverse is durable: no other process appends in between,
  /// and the inverse is computed on the journal's latest state. It returns once the inverse is
  /// durable; if writing it fails, the inverse is taken back (never written, the state set
  /// back) and the error thrown, except ``PersistenceError/uncertain(cause:rollback:)``.
  ///
  /// The inverse is asked of the updater with the state just before it was applied, which is
  /// rebuilt by replaying the journal from the last snapshot up to that entry, on the store's
  /// actor, where a store applies and releases the application's values; only entries after
  /// the last snapshot can be undone, or, with ``JournalOptions/keepsFullHistory``, any entry
  /// (the journal is then replayed from its first entry).
  ///
  /// - Throws: A ``PersistenceError`` taking the lock, flushing or reading the journal,
  ///   ``PersistenceError/encodingFailed(type:reason:)`` when the inverse's type is not
  ///   registered (nothing is dispatched then), or the failure writing the inverse.
  /// - Complexity: O(snapshot + journal after it), or O(journal) with
  ///   ``JournalOptions/keepsFullHistory``, reading on the journal's queue and replaying up to
  ///   the entry undone on the store's actor, plus one dispatch and one flush.
  @discardableResult
  public func undo() async throws(PersistenceError) -> HistoryEntry<S>? {
    _outbox.handOff()
    try await _writer.holdExclusiveLock().get()
    let result: Result<HistoryEntry<S>?, PersistenceError>
    do throws(PersistenceError) {
      result = .success(try await undoHoldingTheLock())
    } catch {
      result = .failure(error)
    }
    await _writer.releaseExclusiveLock()
    return try result.get()
  }

  /// Undoes as ``undo()`` says, while this store holds the directory's exclusive lock.
  private func undoHoldingTheLock() async throws(PersistenceError) -> HistoryEntry<S>? {
    inbox.deliver()
    let limit = lastSequence
    let journal = try await readHistory()
    guard let (entry, inverse) = Self.inverse(in: journal, upTo: limit) else { return nil }
    var encoder = LineEncoder(registry: _writer.registry)
    if let failure = encoder.entry(inverse, sequence: 1, cause: nil, time: nil).failure {
      throw .encodingFailed(
        type: String(reflecting: type(of: inverse)), reason: failure.description)
    }
    let before = (state: store.state, count: journaledCount)
    undoing = entry.sequence
    DispatchCause.$current.withValue(DispatchCause("undo")) {
      store.dispatch(any: inverse)
    }
    undoing = nil
    try await flushOrTakeBack(since: before)
    return entry
  }

  /// Flushes, then reads the journal on the writer's queue, keeping its history, decoded and
  /// not applied.
  ///
  /// What was read comes back whole to the store's actor, which releases it, as it does when
  /// the read fails.
  private func readHistory() async throws(PersistenceError) -> JournalRecovery<S>.Recovered {
    try await flush()
    var recovery = JournalRecovery(
      layout: _writer.layout, files: _writer.files, registry: _writer.registry,
      schema: _writer.options.schemaVersion, migrations: _writer.options.migrations)
    recovery.keepsHistory = true
    recovery.readsFromFirstEntry = _writer.options.keepsFullHistory
    let (reading, writer) = (recovery, _writer)
    let recovered = try await _writer.run {
      Result { () throws(PersistenceError) in
        guard let initialState = writer.disk.withLock({ $0.initialState }) else {
          throw .closed(reason: "the journaled store was closed")
        }
        return try reading.read(initialState: initialState, retiring: writer.retire)
      }
    }.get()
    if let damage = recovered.damage { throw damage }
    return recovered
  }

  /// The newest entry up to `limit` that undo reverts, with its inverse, found on the store's
  /// actor.
  ///
  /// - Complexity: O(entries in `recovered`) for each invertible entry tried, plus the
  ///   updaters' own cost: one replay when the newest can be undone.
  private static func inverse(
    in recovered: JournalRecovery<S>.Recovered, upTo limit: Int
  ) -> (HistoryEntry<S>, any StateUpdater<S>)? {
    var undone = Set<Int>()
    for (index, entry) in recovered.history.enumerated().reversed() where entry.sequence <= limit {
      if let target = entry.undoes {
        undone.insert(target)
        continue
      }
      guard undone.remove(entry.sequence) == nil,
        let invertible = entry.updater as? any InvertibleUpdater<S>
      else { continue }
      var state = recovered.state
      for earlier in recovered.history[..<index] { earlier.updater.updateState(&state) }
      guard let inverse = invertible.inverse(of: state) else { continue }
      return (entry, inverse)
    }
    return nil
  }
}
