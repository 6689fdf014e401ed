import StateStore

// Several processes on one directory: hearing the others' updaters, and telling them apart.
extension JournaledStore {
  /// Where an updater that the store applies comes from.
  public enum Origin: Sendable, Hashable {
    /// Dispatched in this process, to this store or one of its scopes.
    case thisProcess
    /// Appended to the journal by another process (or another store open on the same
    /// directory), read back and applied here: it is not journaled again.
    case otherProcess
  }

  /// Where the updater being applied comes from.
  ///
  /// Read it in an update observer, a listener or a subscriber: while the store notifies them
  /// of an updater another process appended (or of a ``RebasedState``), it is
  /// ``Origin/otherProcess``; at any other time, ``Origin/thisProcess``.
  ///
  /// ```swift
  /// let token = persisted.store.addListener { old, new in
  ///   if persisted.origin == .otherProcess { showBanner("Changed in another window") }
  /// }
  /// ```
  public var origin: Origin { _outbox._ledger._appliesOtherProcess ? .otherProcess : .thisProcess }

  /// Reads now what other processes appended to the directory, and applies it to ``store``
  /// before returning, without waiting for the next poll (see ``JournalOptions/pollInterval``).
  ///
  /// - Throws: The ``PersistenceError`` that kept the journal from being read; the state is
  ///   then as it was, and the next poll or call tries again.
  /// - Complexity: A few system calls when nothing changed; else O(snapshot + journal after
  ///   it) to read the journal, plus applying what is new.
  public func catchUp() async throws(PersistenceError) {
    _outbox.handOff()
    try await _writer.readOthers().get()
    inbox.deliver()
  }

  /// Runs `body` while no other process can append to the directory, on the state with
  /// everything they appended applied, and returns once what `body` dispatched is durable.
  ///
  /// Use it for a change that depends on the latest state across processes: numbering a new
  /// item after the last one, refusing to edit an item another process removed. Without it, a
  /// store decides on the state it has heard of, and another process may append in between.
  ///
  /// ```swift
  /// let id = try await persisted.withExclusiveAccess {
  ///   let id = persisted.store.state.nextID          // every process's items are in
  ///   persisted.store.dispatch(AddItem(id: id))       // no other process appends meanwhile
  ///   return id
  /// }                                                 // durable here, or thrown
  /// ```
  ///
  /// The store takes the directory's exclusive `flock`, after whatever this store queued
  /// before, reads what the others appended and applies it to ``store`` (as ``catchUp()``
  /// does), runs `body`, flushes, then releases the lock. Other processes' appends, opens and
  /// reads wait meanwhile (their dispatches do not); so does this store's polling. Calls from
  /// this store may overlap (each `body` runs alone on the actor, on the latest state).
  ///
  /// Call it outside the store's callbacks (listeners, subscribers, interceptors): `body`'s
  /// dispatches are then applied before they return, so `body` reads their result.
  ///
  /// If the flush fails, what `body` dispatched is taken back: it is never written, and the
  /// store's state is set back to the state `body` began with (with any updater dispatched
  /// since applied again), in one ``RebasedState``, so that a change decided under the lock is
  /// not appended later without it. The one exception is
  /// ``PersistenceError/uncertain(cause:rollback:)``: the change may be on disk, so the store
  /// keeps it, and its next append settles what the journal holds.
  ///
  /// - Parameter body: Reads ``store``'s state and dispatches to it.
  /// - Returns: What `body` returns.
  /// - Throws: A ``PersistenceError`` taking the lock or reading the journal (`body` did not
  ///   run, and nothing changed), the flush's ``PersistenceError`` (what is durable is then
  ///   exactly what it was, as for ``flush()``, and
  ///   ``PersistenceError/uncertain(cause:rollback:)`` when even cutting the journal back
  ///   failed), or else the error `body` threw, after what it dispatched was flushed.
  /// - Complexity: The lock and the few system calls of ``catchUp()`` when nothing changed
  ///   (else reading the journal from its snapshot), plus `body`, plus one flush.
  public func withExclusiveAccess<Value>(_ body: () throws -> Value) async throws -> Value {
    _outbox.handOff()
    try await _writer.holdExclusiveLock().get()
    inbox.deliver()
    let before = (state: store.state, count: journaledCount)
    let outcome = Result { try body() }
    do throws(PersistenceError) {
      try await flushOrTakeBack(since: before)
    } catch {
      await _writer.releaseExclusiveLock()
      throw error
    }
    await _writer.releaseExclusiveLock()
    return try outcome.get()
  }

  /// Flushes; if that fails, takes back the updaters this store journaled after its
  /// `before.count`-th, setting the state back to `before.state`, unless the failure is
  /// ``PersistenceError/uncertain(cause:rollback:)`` (they may be on disk then).
  func flushOrTakeBack(since before: (state: S, count: Int)) async throws(PersistenceError) {
    let taken = (before.count + 1)..<(journaledCount + 1)
    do throws(PersistenceError) {
      try await flush()
    } catch {
      if case .uncertain = error {
        // Some of them may be on disk: the next append settles which.
      } else if !taken.isEmpty {
        takeBack(taken, restoring: before.state)
        await _writer.discard(taken)
      }
      throw error
    }
  }

  /// Forgets this store's updaters numbered `taken`, none of which reached the disk, and sets
  /// the state to `state` (the state before them) with the updaters applied since.
  ///
  /// - Complexity: O(updaters not yet written), plus their own cost.
  private func takeBack(_ taken: Range<Int>, restoring state: S) {
    var state = state
    for updater in _outbox._ledger.unwrittenUpdaters(from: taken.upperBound) {
      updater.updateState(&state)
    }
    // The removed entries are released after the removal's access to the ledger ends: an
    // updater's deinitializer may dispatch, and its entry would be recorded in the ledger.
    withExtendedLifetime((_outbox._ledger._handed, _outbox._ledger._batch)) {
      _outbox._ledger.removeUnwritten(numbered: taken)
    }
    lastSequence -= taken.count
    if taken.contains(flushTarget) { flushTarget = taken.lowerBound - 1 }
    applyFromOtherProcess(RebasedState(state: state), cause: nil)
  }

  /// Polls the directory for other processes' entries every `interval` of `clock`, until the
  /// store is closed or released.
  @usableFromInline
  func _startPolling(every interval: Duration?, on clock: any Clock<Duration>) {
    guard let interval, interval > .zero else { return }
    let writer = _writer
    pollTask = Task {
      while true {
        do { try await sleep(on: clock, for: interval) } catch { return }
        writer.pollSoon()
      }
    }
  }

  /// Applies what the writer read of other processes' entries, in journal order.
  ///
  /// When none of this store's updaters is waiting to be written, the state holds the journal
  /// up to where the others' entries begin, and each of them is dispatched as it is. Otherwise
  /// this store's waiting updaters come after them in the journal, though the store applied
  /// them first: the state is rebuilt in journal order, the journal replayed from its snapshot
  /// with the waiting updaters applied again after it, and set in one ``RebasedState``. A
  /// snapshot that covers entries this store never read is applied the same way. Everything
  /// the writer read is released here, on the store's actor.
  ///
  /// - Complexity: O(entries heard), or for a rebase O(entries after the snapshot + updaters
  ///   waiting), plus the updaters' own cost and the store's notification.
  func apply(_ heard: [Heard<S>]) {
    for heard in heard {
      _outbox._ledger.dropWritten(upTo: heard.lastNumber)
      if _outbox._ledger.allWritten, let entries = heard.newEntries {
        for entry in entries {
          applyFromOtherProcess(entry.updater, cause: entry.cause.map(DispatchCause.init))
        }
      } else {
        var state = heard.journalState()
        for updater in _outbox._ledger.unwrittenUpdaters() { updater.updateState(&state) }
        applyFromOtherProcess(RebasedState(state: state), cause: nil)
      }
      _outbox._ledger._heardThrough = heard.sequence
      lastSequence = heard.sequence + _outbox._ledger.unwrittenCount
    }
  }

  private func applyFromOtherProcess(_ updater: any StateUpdater<S>, cause: DispatchCause?) {
    _outbox._ledger._expectsOtherProcess = true
    _outbox._ledger._appliesOtherProcess = true
    // The store is idle here (this runs from a task or after an await, never inside one of
    // its callbacks), so the dispatch is applied, and observed, before it returns.
    DispatchCause.$current.withValue(cause) {
      store.dispatch(any: updater)
    }
    _outbox._ledger._expectsOtherProcess = false
    _outbox._ledger._appliesOtherProcess = false
  }
}

/// The whole state, rebuilt in journal order, applied in one step by a ``JournaledStore``.
///
/// A journaled store applies it, with ``JournaledStore/origin`` ``JournaledStore/Origin/otherProcess``,
/// when another process's entries come before some of its own updaters in the journal (it
/// applied its own first, before it could hear of theirs), and when a snapshot another process
/// took covers entries it never read. Listeners get the states before and after, as for any
/// updater. It is not journaled, and it is not in any registry, so an action recorder
/// watching the store writes it as unrecorded.
public struct RebasedState<S: State>: StateUpdater {
  /// The state the store takes.
  public let state: S

  /// Creates the updater that sets `state`.
  public init(state: S) {
    self.state = state
  }

  /// Replaces the whole state.
  public func updateState(_ state: inout S) {
    state = self.state
  }
}

/// Carries what the writer read of other processes' entries to the store's actor, in order.
@usableFromInline
final class _HeardInbox<S: State & Codable, Dependencies: Sendable>: Sendable {
  @usableFromInline let pending = _SpinLocked<(heard: [Heard<S>], isScheduled: Bool)>(([], false))
  @MainActor weak var target: JournaledStore<S, Dependencies>?

  init() {}

  /// Queues `heard` and schedules its delivery on the main actor; called on the writer's queue.
  ///
  /// `heard` is taken out of the optional under the lock: the writer's queue never holds the
  /// last reference to what it carries.
  @Sendable func post(_ heard: inout Heard<S>?) {
    let schedule = pending.withLock { pending -> Bool in
      if let heard = heard.take() { pending.heard.append(heard) }
      defer { pending.isScheduled = true }
      return !pending.isScheduled
    }
    if schedule { Task { @MainActor in self.deliver() } }
  }

  /// The ``Heard/lastNumber`` of the oldest delivery not yet made.
  ///
  /// Inlinable, so that the hand-off reads it in code specialised for the state: generic, it
  /// looked the deliveries' type metadata up each time.
  @inlinable var _oldestLastNumber: Int? { pending.withLock { $0.heard.first?.lastNumber } }

  /// Applies everything queued, in order.
  @MainActor func deliver() {
    let taken = pending.withLock { pending -> [Heard<S>] in
      defer { pending = ([], false) }
      return pending.heard
    }
    guard !taken.isEmpty else { return }
    target?.apply(taken)
  }
}
