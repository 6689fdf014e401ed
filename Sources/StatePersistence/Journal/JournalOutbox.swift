import StateStore
import Synchronization

/// A journaled store's side of the journal, on the store's actor: the numbering of its
/// updaters, and the updaters not known to be written, the newest of which wait in a batch
/// that is handed to the writer whole.
///
/// The store's journal (`Store.init(initialState:dependencies:interceptors:journal:tape:)`)
/// holds it strongly (it holds neither the store nor the ``JournaledStore``, so nothing is kept
/// alive in a cycle). The numbering and the waiting batch are on the store's `_JournalTape`,
/// which the store appends most of its updaters to itself, on the actor, with no lock; the
/// journal's hook (``record(_:cause:)``) takes the rest. The batch is handed to the writer in
/// one step (one lock, one scheduling of its queue): when it holds
/// ``_JournalLedger/_batchLimit`` entries (without waking an idle writer: see
/// ``handOff(wakingWriter:)``), at the end of the actor's current job (a task scheduled by the
/// batch's first entry), and before anything that waits for the writer (a flush, a close, the
/// exclusive lock). Dispatch order is kept: batches are handed over in order, and the writer
/// writes them in order.
@MainActor
@usableFromInline
final class _JournalOutbox<S: State & Codable, Dependencies: Sendable> {
  @usableFromInline let _writer: _JournalWriter<S>
  @usableFromInline let _inbox: _HeardInbox<S, Dependencies>
  /// Read only when the writer asks for a snapshot: the state just after an entry.
  @usableFromInline weak var _store: Store<S, Dependencies>?
  /// Everything a dispatch changes, in one value.
  @usableFromInline var _ledger: _JournalLedger<S>
  /// Entries written to the journal that this store no longer needs, released at the end of
  /// the actor's job (see ``handOff(wakingWriter:)``).
  @usableFromInline var _written: [ArraySlice<_PendingEntry<S>>] = []

  init(writer: _JournalWriter<S>, inbox: _HeardInbox<S, Dependencies>, lastSequence: Int) {
    self._writer = writer
    self._inbox = inbox
    self._ledger = _JournalLedger(
      lastSequence: lastSequence, snapshotWanted: writer._snapshotWanted)
  }

  /// Journals the updater the store just applied, with its cause.
  ///
  /// Inlinable, so that it runs as code specialised for the application's state.
  @inlinable
  func record(_ updater: consuming any StateUpdater<S>, cause: consuming DispatchCause?) {
    // Before `startJournaling` and after a close or the journaled store's release.
    guard _ledger._isJournaling else { return }
    var snapshot: _EntryExtras<S>?
    // Not for another process's updater, which is not journaled: its entry would not carry it.
    if _writer._snapshotWanted._isRaised && !_ledger._expectsOtherProcess {
      // Once every snapshot interval: the writer asked for the state after the next entry.
      snapshot = _takeSnapshot()
    }
    switch _ledger.record(updater, cause: cause, snapshot: snapshot) {
    case .buffered: break
    case .firstOfBatch: _scheduleHandOff()
    // A full batch goes to the writer at once, without waking it: an idle writer starts at
    // the end of the actor's job (the hand-off scheduled with the batch's first entry, which
    // is still to run), so that a long burst of dispatches does not share its processor with
    // the writer's encoding on a small machine (P1 in store-bench).
    case .full: handOff(wakingWriter: false)
    case .numberingUsedUp(let number):
      _stopNumbering(at: number)
    }
  }

  /// The store's state, for the entry being recorded to carry as the writer asked.
  @usableFromInline
  func _takeSnapshot() -> _EntryExtras<S>? {
    _writer._snapshotWanted._raised.store(false, ordering: .relaxed)
    guard let state = _store?.state else { return nil }
    return _EntryExtras(snapshot: state, undoes: nil, heardThrough: _ledger._heardThrough)
  }

  /// Stops the writer at this store's entry `number`: the journal's numbering is used up.
  @usableFromInline
  func _stopNumbering(at number: Int) {
    _writer.stop(
      .closed(reason: "the journal's numbering is used up at entry \(Int.max - 1)"), at: number)
  }

  /// Hands the waiting batch to the writer at the end of the actor's current job.
  @usableFromInline
  func _scheduleHandOff() {
    Task {
      self._ledger._handOffIsScheduled = false
      self.handOff()
    }
  }

  /// Hands the waiting batch, if any, to the writer now, and forgets the updaters the writer
  /// wrote.
  ///
  /// Inlinable, so that it runs specialised for the application's state: generic, it looked
  /// the batches' type metadata up at every hand-off.
  ///
  /// With `wakingWriter` false (a full batch, in the middle of the actor's job), an idle writer
  /// is not woken: the next hand-off that wakes it (every other one) sets it to work on this
  /// batch too.
  ///
  /// The entries written since the last hand-off are released here, on the actor, when the
  /// hand-off wakes the writer (the end of the actor's job, a flush, a close); a full batch's
  /// hand-off, in the middle of a job, keeps them until then, so that no deinitializer of the
  /// application's runs inside a dispatch.
  @inlinable
  func handOff(wakingWriter: Bool = true) {
    guard let batch = _ledger.takeBatch() else {
      if wakingWriter && _ledger._writerSleepsOnBatches {
        _ledger._writerSleepsOnBatches = false
        _writer.wake()
      }
      if wakingWriter { _releaseWritten() }
      return
    }
    // Entries written by the last hand-off's count, except those a `Heard` still on its way
    // needs for a rebase (read in this order: a `Heard` posted after the count was read
    // names at least it).
    let durable = _ledger._durableNumber
    _written += _ledger.dropWritten(upTo: min(durable, _inbox._oldestLastNumber ?? durable))
    let (durableNow, spare) = _writer.enqueue(batch, wakes: wakingWriter)
    _ledger._writerSleepsOnBatches = !wakingWriter
    _ledger._durableNumber = durableNow
    // The next batch goes into memory the writer emptied, or else starts with room for as many
    // entries as this one had.
    let tape = _ledger._tape
    if let spare, tape._batch.isEmpty {
      tape._batch = spare
    } else if tape._batch.isEmpty {
      tape._batch.reserveCapacity(batch.count)
    }
    tape._refresh()
    if wakingWriter { _releaseWritten() }
  }

  /// Forgets, and releases here on the actor, every entry known to be written: after a flush
  /// or a close, when nothing else would drop them until the next dispatch.
  func forgetWritten() {
    let durable = max(_ledger._durableNumber, _writer.durableNumber)
    _ledger._durableNumber = durable
    _written += _ledger.dropWritten(upTo: min(durable, _inbox._oldestLastNumber ?? durable))
    _releaseWritten()
  }

  /// Releases the written entries this store kept, here on its actor.
  @usableFromInline
  func _releaseWritten() {
    guard !_written.isEmpty else { return }
    // Moved out before the release, so that a deinitializer that dispatches finds the outbox
    // in order.
    var released: [ArraySlice<_PendingEntry<S>>] = []
    swap(&released, &_written)
    _ = consume released
  }
}

/// What ``_JournalLedger/record(_:cause:snapshot:)`` asks its outbox to do.
@usableFromInline
enum _RecordOutcome {
  /// Nothing: the entry waits in the batch, or was not journaled.
  case buffered
  /// Schedule the batch's hand-off: it is the batch's first entry.
  case firstOfBatch
  /// Hand the batch over now: it is full.
  case full
  /// Stop the writer at this store's entry `number`: the journal's numbering is used up.
  case numberingUsedUp(number: Int)
}

/// The numbering of a journaled store's updaters, and those not known to be written, oldest
/// first: a rebase applies them again after other processes' entries.
///
/// The numbering and the waiting batch are on the store's `_JournalTape`, which the store
/// appends most updaters to itself; this adds what only the journal needs.
@MainActor
@usableFromInline
struct _JournalLedger<S: State & Codable> {
  /// How many entries a batch holds before it is handed to the writer at once.
  @usableFromInline nonisolated static var _batchLimit: Int { _JournalTape<S>._batchLimit }

  /// The numbering, the flags that decide how the next updater is journaled, and the batch.
  @usableFromInline let _tape: _JournalTape<S>
  /// The journal's last entry that the state holds, as last heard from the writer.
  @usableFromInline var _heardThrough: Int
  /// The last of this store's entries known to be durable, as of the last hand-off.
  @usableFromInline var _durableNumber = 0
  /// Batches handed to the writer whose entries are not known to be written, oldest first.
  @usableFromInline var _handed: [ArraySlice<_PendingEntry<S>>] = []
  /// Whether the writer was handed batches without being woken since it was last woken: the
  /// next hand-off that wakes it must, even with no batch of its own.
  @usableFromInline var _writerSleepsOnBatches = false

  init(lastSequence: Int, snapshotWanted: _JournalSignal) {
    self._tape = _JournalTape(lastSequence: lastSequence, snapshotWanted: snapshotWanted)
    self._heardThrough = lastSequence
  }

  /// How many updaters the state holds, counted from the journal's first entry.
  @usableFromInline var _lastSequence: Int {
    get { _tape._lastSequence }
    nonmutating set {
      _tape._lastSequence = newValue
      _tape._refresh()
    }
  }
  /// How many updaters this store journaled: the last one's `_PendingEntry._number`.
  @usableFromInline var _journaledCount: Int { _tape._journaledCount }
  /// The number of this store's last journaled updater that was not taken back: what a flush
  /// waits for.
  @usableFromInline var _flushTarget: Int {
    get { _tape._flushTarget }
    nonmutating set { _tape._flushTarget = newValue }
  }
  /// The entry that the next journaled updater reverts, while an undo dispatches its inverse.
  @usableFromInline var _undoing: Int? {
    get { _tape._undoing }
    nonmutating set { _tape._undoing = newValue }
  }
  /// Whether the store's updaters are journaled: from `startJournaling` until a close or the
  /// journaled store's release.
  @usableFromInline var _isJournaling: Bool {
    get { _tape._isJournaling }
    nonmutating set { _tape._isJournaling = newValue }
  }
  /// Whether the next update observed is one that another process appended.
  @usableFromInline var _expectsOtherProcess: Bool {
    get { _tape._expectsOtherProcess }
    nonmutating set { _tape._expectsOtherProcess = newValue }
  }
  /// Whether the updater being applied was appended by another process.
  @usableFromInline var _appliesOtherProcess: Bool {
    get { _tape._appliesOtherProcess }
    nonmutating set { _tape._appliesOtherProcess = newValue }
  }
  /// The entries not yet handed to the writer, oldest first.
  @usableFromInline var _batch: [_PendingEntry<S>] { _tape._batch }
  /// Whether a task will hand the batch over at the end of the actor's current job.
  @usableFromInline var _handOffIsScheduled: Bool {
    get { _tape._handOffIsScheduled }
    nonmutating set { _tape._handOffIsScheduled = newValue }
  }

  /// Numbers the updater just applied and puts it in the batch, unless it is another
  /// process's, which is in the journal already: what the store's own append
  /// (`_JournalTape._append(_:cause:)`) leaves to the journal.
  @inlinable
  mutating func record(
    _ updater: consuming any StateUpdater<S>, cause: consuming DispatchCause?,
    snapshot: _EntryExtras<S>?
  ) -> _RecordOutcome {
    defer { _tape._refresh() }
    if _tape._expectsOtherProcess {
      _tape._expectsOtherProcess = false
      _tape._appliesOtherProcess = true
      return .buffered
    }
    _tape._appliesOtherProcess = false
    guard _tape._lastSequence < Int.max - 1 else {
      // The numbering is used up (a journal, or a hostile snapshot, at entry Int.max - 1). The
      // updater stays in memory, unjournaled, but is counted as this store's, so that a flush
      // waiting for it fails with this error (the writer stops at its number) and
      // `withExclusiveAccess` takes it back: a change is never reported durable unwritten.
      return .numberingUsedUp(number: _tape._numberNext())
    }
    let number = _tape._numberNext()
    var extras = snapshot
    if let undoes = _tape._undoing {
      extras = _markingUndo(of: undoes, snapshot: snapshot)
      _tape._undoing = nil
    }
    _tape._batch.append(
      _PendingEntry(updater: updater, cause: cause, number: number, extras: extras))
    if _tape._batch.count == 1 && !_tape._handOffIsScheduled {
      _tape._handOffIsScheduled = true
      return .firstOfBatch
    }
    return _tape._batch.count >= Self._batchLimit ? .full : .buffered
  }

  /// What the entry an undo dispatched carries: the mark, and any snapshot.
  @usableFromInline
  func _markingUndo(of undoes: Int, snapshot: _EntryExtras<S>?) -> _EntryExtras<S> {
    _EntryExtras(
      snapshot: snapshot?.snapshot, undoes: undoes,
      heardThrough: snapshot?.heardThrough ?? _heardThrough)
  }

  /// Moves the waiting batch to the handed ones and returns it, or `nil` when none waits.
  @inlinable
  mutating func takeBatch() -> [_PendingEntry<S>]? {
    guard !_tape._batch.isEmpty else { return nil }
    var taken: [_PendingEntry<S>] = []
    // The next batch's room is given by the hand-off (``_JournalOutbox/handOff()``).
    swap(&taken, &_tape._batch)
    _tape._refresh()
    _handed.append(taken[...])
    return taken
  }

  /// How many updaters are not known to be written.
  ///
  /// - Complexity: O(batches).
  var unwrittenCount: Int {
    _handed.reduce(_tape._batch.count) { $0 + $1.count }
  }

  /// Whether every updater is known to be written.
  ///
  /// - Complexity: O(batches).
  var allWritten: Bool { _tape._batch.isEmpty && _handed.allSatisfy(\.isEmpty) }

  /// The updaters not known to be written, numbered from `first` on, in order.
  ///
  /// - Complexity: O(updaters not known to be written).
  func unwrittenUpdaters(from first: Int = 0) -> [any StateUpdater<S>] {
    var updaters: [any StateUpdater<S>] = []
    for entries in _handed + [_tape._batch[...]] {
      for entry in entries where entry._number >= first { updaters.append(entry._updater) }
    }
    return updaters
  }

  /// Forgets this store's updaters numbered `taken`, which will never be written.
  ///
  /// - Complexity: O(updaters not known to be written).
  mutating func removeUnwritten(numbered taken: Range<Int>) {
    _handed = _handed.map { $0.filter { !taken.contains($0._number) }[...] }
    _handed.removeAll { $0.isEmpty }
    _tape._batch.removeAll { taken.contains($0._number) }
    _tape._refresh()
  }

  /// Forgets this store's updaters up to `number`, written to the journal.
  ///
  /// - Returns: The batches written whole, for the writer to free.
  /// - Complexity: O(batches).
  @inlinable @discardableResult
  mutating func dropWritten(upTo number: Int) -> [ArraySlice<_PendingEntry<S>>] {
    var written = 0
    while written < _handed.count, (_handed[written].last?._number ?? .min) <= number {
      written += 1
    }
    let dropped = Array(_handed[..<written])
    _handed.removeFirst(written)
    if let first = _handed.first, let oldest = first.first, oldest._number <= number {
      _handed[0] = first.drop { $0._number <= number }
    }
    return dropped
  }
}
