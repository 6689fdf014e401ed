import Synchronization

/// An updater a root store applied, with its cause, on its way to a journal
/// (StatePersistence's `JournaledStore`).
///
/// Five words and a cause: what few entries carry (a snapshot, an undo's mark) is held by
/// reference, so that the batches, which pile up while the disk is slower than dispatch, stay
/// small.
@usableFromInline
package struct _JournalEntry<S: State>: Sendable {
  /// The updater, as the store applied it.
  @usableFromInline package let _updater: any StateUpdater<S>
  /// ``DispatchCause/current`` when it was dispatched.
  @usableFromInline package let _cause: DispatchCause?
  /// Its place among the updaters this store journals, from 1.
  @usableFromInline package let _number: Int
  /// What the journal attaches to a few entries (a snapshot's state, an undo's mark); `nil`
  /// for every entry the store appends itself.
  @usableFromInline package let _extras: (any AnyObject & Sendable)?

  @inlinable
  package init(
    updater: any StateUpdater<S>, cause: DispatchCause?, number: Int,
    extras: (any AnyObject & Sendable)?
  ) {
    self._updater = updater
    self._cause = cause
    self._number = number
    self._extras = extras
  }
}

/// A flag another thread raises for the store's actor: the journal's writer asks for a
/// snapshot with it.
///
/// The store reads it on every dispatch it journals, so the flag has a cache line of its
/// own: whatever the allocator puts beside the object (the writer's locks, made on its queue)
/// is written by other threads, and a flag sharing their line would be fetched from the
/// other core on nearly every read. The object starts at a multiple of 16 bytes; with 48
/// bytes before the flag and more than 63 after it, the line holding the flag lies inside
/// the object.
@usableFromInline
package final class _JournalSignal: Sendable {
  /// Room before the flag (after the object's 16-byte header).
  private let _roomBefore: (Int, Int, Int, Int, Int, Int) = (0, 0, 0, 0, 0, 0)
  /// Whether the signal is raised.
  @usableFromInline package let _raised = Atomic<Bool>(false)
  /// Room after the flag.
  private let _roomAfter: (Int, Int, Int, Int, Int, Int, Int, Int) = (0, 0, 0, 0, 0, 0, 0, 0)

  package init() {}

  /// Whether the signal is raised, read with no ordering: what it asks for may come one entry
  /// later.
  @inlinable
  package var _isRaised: Bool { _raised.load(ordering: .relaxed) }
}

// The tape's storage is in `Unchecked/UncheckedEngineStorage.swift`.

extension _JournalTape {
  /// Says how many updaters in a row the store may append itself: call after changing the
  /// batch or the numbering other than through ``_append(_:cause:)``.
  ///
  /// None unless the store is journaling its own updaters with nothing to mark and the batch's
  /// hand-off is scheduled; then as many as leave the batch one short of full (the hook hands
  /// a full batch over) and the numbering short of its end (the hook stops the writer there).
  @inlinable
  package func _refresh() {
    guard
      _isJournaling && !_expectsOtherProcess && !_appliesOtherProcess && _undoing == nil
        && _handOffIsScheduled
    else {
      _inlineRoom = 0
      return
    }
    let batchRoom = Swift.max(0, Self._batchLimit - 1 - _batch.count)
    let numberingRoom =
      _lastSequence >= 0 && _lastSequence < Int.max - 2 ? (Int.max - 2) - _lastSequence : 0
    _inlineRoom = Swift.min(batchRoom, numberingRoom)
  }

  /// Appends the updater just applied, with its cause, if the store may: answers `false`
  /// when the journal's hook must see it.
  @inlinable @inline(__always)
  package func _append<U: StateUpdater>(_ updater: U, cause: DispatchCause?) -> Bool
  where U.StateType == S {
    guard _inlineRoom > 0, !_snapshotWanted._isRaised else { return false }
    _inlineRoom -= 1
    _batch.append(
      _JournalEntry(updater: updater, cause: cause, number: _numberNext(), extras: nil))
    return true
  }

  /// How many updaters the state holds, counted from the journal's first entry.
  @inlinable
  package var _lastSequence: Int {
    get { _numbering.lastSequence }
    set { _numbering.lastSequence = newValue }
  }
  /// How many updaters this store journaled: the last one's ``_JournalEntry/_number``.
  @inlinable
  package var _journaledCount: Int { _numbering.journaledCount }
  /// The number of this store's last journaled updater that was not taken back: what a flush
  /// waits for.
  @inlinable
  package var _flushTarget: Int {
    get { _numbering.flushTarget }
    set { _numbering.flushTarget = newValue }
  }

  /// Numbers the next of this store's journaled updaters: the one place where entries are
  /// numbered, for the store's own appends and the journal's hook alike.
  ///
  /// - Returns: Its number among this store's updaters, from 1; the journal's count and what
  ///   a flush waits for move with it.
  @inlinable @inline(__always)
  package func _numberNext() -> Int {
    _numbering.numberNext()
  }
}

/// How a store's journaled updaters are numbered: one value, changed in one place
/// (``numberNext()``).
@usableFromInline
package struct _JournalNumbering: Sendable {
  /// How many updaters the state holds, counted from the journal's first entry; stays at
  /// `Int.max` once the numbering is used up.
  @usableFromInline package var lastSequence: Int
  /// How many updaters this store journaled: the last one's number.
  @usableFromInline package var journaledCount = 0
  /// The number of this store's last journaled updater that was not taken back: what a flush
  /// waits for.
  @usableFromInline package var flushTarget = 0

  @usableFromInline
  init(lastSequence: Int) {
    self.lastSequence = lastSequence
  }

  /// Numbers the next updater: the state holds one more (up to `Int.max`, where a used-up
  /// numbering stays), this store journaled one more, and a flush waits for it.
  ///
  /// - Returns: Its number among this store's updaters, from 1.
  @inlinable @inline(__always)
  package mutating func numberNext() -> Int {
    if lastSequence < Int.max { lastSequence += 1 }
    journaledCount += 1
    flushTarget = journaledCount
    return journaledCount
  }
}
