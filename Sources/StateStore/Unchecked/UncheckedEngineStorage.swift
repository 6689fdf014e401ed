// The root engine's storage: the fields that every dispatch reads and writes, which skip the
// run-time exclusivity check in a release build (`@exclusivity(unchecked)`), and the proofs
// that no two accesses to them can overlap. The checked build (`STATESTORE_CHECKED_EXCLUSIVITY`,
// which `.ci/run` runs the whole suite in) checks every one of them: a proof that does not hold
// traps there. The rest of the module reaches these fields only through these types; their
// methods live in `Store/RootEngine.swift` and `Store/JournalTape.swift`.
//
// The root's runtime: how a dispatch reaches the state and what runs after it, in one type,
// `_RootEngine`, which a root store holds as its runtime and a scope never has (a scope's
// runtime is its `_ScopeLink`; both derive from `_StoreRuntime`, `Store/StoreRuntime.swift`). The store
// (`Store.swift`) is the façade both roles share; its `dispatch` methods
// (`Store/Store+Dispatch.swift`) hand a root's dispatch to its engine and a scope's to its link
// (`Scopes/ScopeLink.swift`), whose root link (`Store/RootEngine+Scopes.swift`) comes back to
// the same engine. The engine's dispatch flags, its update count and its state's address are
// in its non-generic base, `_EngineCore`, which its scopes' handle knows it as.
//
// Every dispatch takes one of two ways in, and both end in the one apply path,
// `applyChange(_:origin:forgetsKeptSlices:notifyingUpdateObservers:store:)`:
// - applied at once: `Store.dispatch(_:)` at the root, `applyInPlace(origin:root:_:)` for a
//   scope, when the root is idle, has no interceptors and (for a scope) no update observers;
// - queued: everything else goes through `enqueue(_:store:)`, and `drainQueue(store:)` runs
//   the queue through the interceptors to `finish(_:cause:perform:store:)`.
//
// Every engine method that needs the store is called with it (`store:`), which the caller
// holds: the store's own methods pass `self`, and a scope's closures take a strong reference to
// the store first (`RootReference.store`). So the store, and the engine it alone owns, stay
// alive for the whole of any such method, even when the application's code that the method
// runs releases every other reference to the store. A scope's change of the state (the
// unobserved path in `RootHandle.applyUnobserved`, and `applyInPlace`) holds neither, to save
// two atomic operations a dispatch: the engine then outlives a store released by that code
// through the scopes' handle (`RootHandle.withEngineCore` has the proof). The engine holds no
// reference to its store.
//
// Why the unchecked accesses in this file never overlap (each field's declaration says which
// of these it relies on):
// - `currentState` is modified only in `runChange(_:)`, the updater's `inout` access,
//   and every way to it sets `isDispatching` first, so a dispatch from inside the updater (or
//   from a deinitializer it runs) is queued, never nested. A read cannot nest inside it either,
//   even from hostile code (an updater that captured the store and calls
//   `MainActor.assumeIsolated { store.state }`): every read that code outside this file can
//   start (`state`, subscribing, an interceptor's `context.state`) first checks
//   `isApplyingUpdater` and stops the process with a message naming the rule
//   (`Store.checkNotInsideUpdater`). The other user code that runs inside the updater's access
//   (the deinitializers of values it replaces) meets the same checks. A dispatch through a
//   scope made inside the access (from an id's `==` or `hash(into:)` that the updater's look-up
//   by id runs, or from such a deinitializer) reads nothing either: an element scope's way in
//   (`ElementAccess.withSlice`) checks `isApplyingUpdater` before its parent's drop reason or
//   `peek` could read, and answers "busy"; the scope then queues its updater unchecked, with
//   an admission that looks its element up (and reports the dispatch as dropped if it is gone)
//   when `drainQueue` reaches it, after the access has ended (`Store._forwardThroughScope`,
//   `interceptThroughScope`). Tests: `ScopedDispatchInsideUpdaterTests`. The engine's own reads
//   (notifying, `peekState`, the mirror's comparison, a row subscription's look-up in
//   `Store.lookupTable(of:)`) happen outside the updater's access, after checking or setting
//   the flags, and copy bytes or values, running no user code inside the access: a class
//   property passed as an argument is copied, so no access is open while a listener or
//   subscriber runs.
// - `queue` and `queueHead` are read and changed only by `enqueue(_:store:)` (an append) and
//   `drainQueue(store:)` (taking one element out, then a reset), short accesses that call no
//   user code: each queued dispatchable is moved out of its slot before it runs, so the queue
//   never holds the last reference to one, and the reset destroys nothing but empty slots.
// - The flags (`isDispatching`, `isApplyingUpdater`, `hasQueued`, `version` and `afterChange`,
//   what runs after a change) are plain values, read by copy and written by assignment, never passed
//   `inout`, so no access to one spans any call.
// - The observer lists (`updateObservers`, `scopeNodes`, `unmirroredScopeNodes`) follow the
//   store's rule for its own lists (see `listeners` in `Store.swift`): read by copying them,
//   written by short appends, removals and assignments that call nothing outside the store,
//   with what a write releases kept alive until after it.

import Synchronization

/// The part of a root's engine that does not depend on its types.
///
/// The dispatch flags, the update count, and the address of the state: ``_RootEngine``'s base,
/// which the handle its scopes hold the root by knows it as (``_RootHandle/_core``).
///
/// A scope knows its own slice's type, not the root's, and reaches the root through a handle
/// (``_RootHandle``) that does not know the root's types either. Through this class it applies
/// a dispatch to a slice stored inline in the root's state the way the root applies its own:
/// it checks the flags, sets them, runs the updater at the slice's address, and counts the
/// update, with no call through a closure and no reference counted, as code specialised for
/// the slice's type (`Store.dispatchThroughScope`). Everything else a dispatch can need (the
/// observers, the queue, the interceptors) is in the generic engine.
///
/// See the comment at the top of `RootEngine.swift` for why the unchecked accesses never
/// overlap.
@usableFromInline
@MainActor
class _EngineCore {
  /// Where the state begins: the engine's `_state`, whose address never changes.
  @usableFromInline final let _stateAddress: UnsafeMutableRawPointer
  /// Whether there are interceptors, so that the fast path can never apply a dispatch at once.
  ///
  /// Kept apart from the interceptors so that the fast path reads one flag.
  @usableFromInline final let _hasInterceptors: Bool
  /// True while the store is applying a dispatch or notifying about it.
  // Unchecked: a flag (see the top of `RootEngine.swift`).
  #if !STATESTORE_CHECKED_EXCLUSIVITY
    @exclusivity(unchecked)
  #endif
  @usableFromInline final var _isDispatching = false
  /// True only while an updater holds the state `inout`.
  // Unchecked: a flag (see the top of `RootEngine.swift`).
  #if !STATESTORE_CHECKED_EXCLUSIVITY
    @exclusivity(unchecked)
  #endif
  @usableFromInline final var _isApplyingUpdater = false
  /// What runs after a change of the state: decided once, whenever observers, the journal or
  /// scopes come and go (`_RootEngine._refreshFlags(store:)`), and read by every way a change
  /// is applied.
  // Unchecked: a plain value (see the top of `RootEngine.swift`), read by copy and written by
  // assignment.
  #if !STATESTORE_CHECKED_EXCLUSIVITY
    @exclusivity(unchecked)
  #endif
  @usableFromInline final var _afterChange = _AfterChange.nothing
  /// Whether the queue holds a dispatch not yet run.
  // Unchecked: a flag (see the top of `RootEngine.swift`).
  #if !STATESTORE_CHECKED_EXCLUSIVITY
    @exclusivity(unchecked)
  #endif
  @usableFromInline final var _hasQueued = false
  /// The number of updates applied: what a selection group's cache and an ``AppliedUpdate``'s
  /// `sequence` count.
  // Unchecked: a flag (see the top of `RootEngine.swift`): a plain value, read by copy and
  // written by assignment.
  #if !STATESTORE_CHECKED_EXCLUSIVITY
    @exclusivity(unchecked)
  #endif
  @usableFromInline final var _version: UInt64 = 0

  @usableFromInline
  init(stateAddress: UnsafeMutableRawPointer, hasInterceptors: Bool) {
    self._stateAddress = stateAddress
    self._hasInterceptors = hasInterceptors
  }

}

/// The root store's runtime: its state, its dispatch flags and queue, its interceptors, its
/// update observers and its scopes' registrations, with the dispatch loop and the one apply
/// path over them.
///
/// A root ``Store`` owns exactly one, created with it and never handed out; a scope has none and
/// reaches its root's through its link. See the comment at the top of this file for the proofs
/// of the unchecked accesses.
@usableFromInline
@MainActor
final class _RootEngine<S: State, Dependencies: Sendable>: _EngineCore {
  /// Where the application's state lives: allocated with the engine, at an address that does
  /// not change, so that a scope's dispatch reaches its slice there (see ``_EngineCore``).
  @usableFromInline let _state: UnsafeMutablePointer<S>
  /// The application's state.
  // A pointer's pointee, so no run-time exclusivity check, as `@exclusivity(unchecked)` would
  // have it: see the top of this file; its only modifying access is `runChange(_:)`, and a
  // scope's in-place change (`Store.dispatchThroughScope`), which sets the same flags.
  @inlinable
  var _currentState: S {
    unsafeAddress { UnsafePointer(_state) }
    unsafeMutableAddress { _state }
  }
  /// The dispatches waiting for their turn.
  // Unchecked: see the top of this file.
  #if !STATESTORE_CHECKED_EXCLUSIVITY
    @exclusivity(unchecked)
  #endif
  @usableFromInline var _queue: [_QueuedDispatch<S, Dependencies>?] = []
  /// The first waiting dispatch in `queue`.
  // Unchecked: see the top of this file.
  #if !STATESTORE_CHECKED_EXCLUSIVITY
    @exclusivity(unchecked)
  #endif
  @usableFromInline var _queueHead = 0
  /// The steps every dispatchable passes through, in order; emptied when the store goes.
  // Checked: read only when there are interceptors, never on the fast path.
  @usableFromInline var _interceptors: [StoreInterceptor<S>]
  /// The observers of applied updaters (an action recorder, a test store).
  // Checked: read only when a change is recorded (`_AfterChange.recordsUpdaters`), where boxing
  // the updater costs more than the check.
  @usableFromInline var _updateObservers: [_UpdateObserverEntry<S>] = []
  /// The journal's hook (a `JournaledStore`'s, in StatePersistence): told of every updater
  /// applied, with its cause, right after the state changed and before any update observer.
  ///
  /// One optional rather than an entry among the update observers, so that a journaled store
  /// that nothing else observes applies an updater with no ``AppliedUpdate``, no list to walk
  /// and no notification beyond it (P1 in store-bench). Its argument is an existential, which
  /// specialised and generic code pass alike: calling it needs no reabstraction thunk. Both
  /// arguments are consumed, so that the journal keeps the box made for the call instead of
  /// copying it and destroying the original. A constant, given at the store's creation: a
  /// call reads it without retaining it, which a variable would cost (two atomic operations
  /// per dispatch); the journal stops by ignoring what it is told.
  @usableFromInline let _journal: _Journal<S>?
  /// The journal's numbering and batch, when it has them: a journaled store appends most
  /// updaters to it itself, and calls `journal` only for the rest (see ``_JournalTape``).
  ///
  /// A constant, for the reason `journal` is.
  @usableFromInline let _tape: _JournalTape<S>?
  /// The scopes of this root that have listeners or subscribers, notified after every update.
  // Unchecked: an observer list (see the top of this file).
  #if !STATESTORE_CHECKED_EXCLUSIVITY
    @exclusivity(unchecked)
  #endif
  @usableFromInline var _scopeNodes: [_ScopeNode] = []
  /// The mirror of the scopes' kept slices; see ``_ScopeMirror``.
  ///
  /// A constant, made with the engine: an update with scopes reads it without retaining it,
  /// which a variable, or an optional bound on every update, would cost (two atomic operations
  /// per dispatch).
  @usableFromInline let _scopeMirror = _ScopeMirror(size: MemoryLayout<S>.size)
  /// The scope nodes outside the mirror, in `scopeNodes`' order.
  ///
  /// All that an update visits when the mirror matches.
  // Unchecked: an observer list (see the top of this file).
  #if !STATESTORE_CHECKED_EXCLUSIVITY
    @exclusivity(unchecked)
  #endif
  @usableFromInline var _unmirroredScopeNodes: [_ScopeNode] = []
  /// The root's link to itself, which its scopes compose; made with the first scope.
  @usableFromInline var _rootLink: _ScopeLink<S>?
  /// How the root's scopes reach it, made with its first scope.
  ///
  /// Cleared when the store goes (``_releaseContents()``): the handle holds this engine, so
  /// the two would otherwise keep each other alive.
  @usableFromInline var _rootReference: _RootHandle?
  /// Whether ``_releaseContents()`` has run: the state is then destroyed, and the engine's
  /// deinitializer only frees its memory.
  // Checked: touched only as the store goes and as the engine does.
  @usableFromInline var _contentsAreReleased = false

  @usableFromInline
  init(
    initialState: S, interceptors: [StoreInterceptor<S>], journal: _Journal<S>?,
    tape: _JournalTape<S>?
  ) {
    let state = UnsafeMutablePointer<S>.allocate(capacity: 1)
    state.initialize(to: initialState)
    self._state = state
    self._interceptors = interceptors
    self._journal = journal
    self._tape = journal == nil ? nil : tape
    super.init(stateAddress: UnsafeMutableRawPointer(state), hasInterceptors: !interceptors.isEmpty)
    if journal != nil { _afterChange.path = .journalAlone }
  }

  /// Destroys the state and lets go of the queue, the interceptors, the scopes' registrations
  /// and the root's link, as the store's own destruction would: called by the store's
  /// deinitializer (through ``_StoreRuntime/_storeIsGone()``), or, when the store went in the middle of a scope's
  /// call that uses this engine, by that call as it returns
  /// (``_RootHandle/withEngineCore(_:ifReleased:)``), never inside an access to the state.
  ///
  /// On the main actor, so the deinitializers of the state's values run there, as they would
  /// for a stored property. What is released is taken out of its field first and released
  /// after every write, so a deinitializer that reaches a scope finds the root released
  /// (``_RootHandle/_isAlive`` is already false) and the engine's fields whole.
  @usableFromInline
  func _releaseContents() {
    guard !_contentsAreReleased else { return }
    _contentsAreReleased = true
    let queue = _queue
    _queue = []
    _queueHead = 0
    _hasQueued = false
    let interceptors = _interceptors
    _interceptors = []
    let nodes = (_scopeNodes, _unmirroredScopeNodes)
    _scopeNodes = []
    _unmirroredScopeNodes = []
    let link = _rootLink
    _rootLink = nil
    let reference = _rootReference
    _rootReference = nil
    _state.deinitialize(count: 1)
    withExtendedLifetime((queue, interceptors, nodes, link, reference)) {}
  }

  // Runs where the last reference goes, on the main actor: with the store (whose own
  // deinitializer is isolated), or with the last of its scopes' handles, after the store
  // released the contents.
  isolated deinit {
    if !_contentsAreReleased { _state.deinitialize(count: 1) }
    _state.deallocate()
  }
}

/// The numbering of a journaled store's updaters and the batch the newest wait in: the part of
/// the journal that every dispatch changes, which the root store changes itself.
///
/// StatePersistence's journal owns it (its ledger and outbox) and decides, through
/// ``_refresh()``, how many updaters in a row the store may append itself (``_inlineRoom``):
/// none while anything but numbering and batching has to happen for the next one (the first
/// of a batch schedules its hand-off, a full batch is handed over at once, another process's
/// updater is not journaled, an undo marks its entry, a snapshot is wanted, journaling is off).
/// Everything else goes through the journal's hook (the store's `_journal`), which appends
/// under the same rules. So a dispatch to a journaled store that nothing else observes does
/// what a store without a journal does, then reads its cause and appends one entry to an
/// array, with no call through a closure (P1 in store-bench).
///
/// The three fields every inline append touches (``_numbering``, ``_batch``, ``_inlineRoom``)
/// skip the run-time exclusivity check; the flags
/// that only ``_refresh()`` reads, off the inline path, are checked. Why the unchecked accesses
/// never overlap: every access is on the main actor, a read by copy,
/// an assignment, or an append to ``_batch``. An append copies an updater and a cause into the
/// array, which runs no code of the application's (copying a value retains what it holds), and
/// releases nothing: the array is unique when the batch is appended to (the journal takes it by
/// swapping in an empty one, and only copies it for as long as a synchronous read), and when it
/// is not, the copy the append makes leaves the old buffer to its other holder. The journal
/// releases entries only after its accesses end (see `_JournalOutbox`). So an updater's
/// deinitializer that dispatches runs outside every access, and its dispatch is appended then
/// (tested in StatePersistence's `HostileDeinitializerTests`).
@MainActor
@usableFromInline
package final class _JournalTape<S: State> {
  /// How many entries a batch holds before it is handed to the writer at once: a bound on what
  /// a long burst of dispatches keeps from the writer.
  @inlinable nonisolated package static var _batchLimit: Int { 1024 }

  /// How this store's journaled updaters are numbered.
  // Unchecked: see the type's comment.
  #if !STATESTORE_CHECKED_EXCLUSIVITY
    @exclusivity(unchecked)
  #endif
  @usableFromInline package var _numbering: _JournalNumbering
  /// The entries not yet handed to the writer, oldest first.
  // Unchecked: see the type's comment.
  #if !STATESTORE_CHECKED_EXCLUSIVITY
    @exclusivity(unchecked)
  #endif
  @usableFromInline package var _batch: [_JournalEntry<S>] = []
  /// How many more updaters the store may append itself before the journal's hook must see
  /// one; see ``_refresh()``.
  // Unchecked: see the type's comment.
  #if !STATESTORE_CHECKED_EXCLUSIVITY
    @exclusivity(unchecked)
  #endif
  @usableFromInline package var _inlineRoom = 0
  /// Raised by the writer when it wants a snapshot: the next updater goes to the hook, which
  /// attaches the state to its entry.
  @usableFromInline package let _snapshotWanted: _JournalSignal

  /// Whether the store's updaters are journaled: from the journal's start until a close or the
  /// journaled store's release.
  @usableFromInline package var _isJournaling = false {
    didSet { _refresh() }
  }
  /// Whether the next update observed is one that another process appended.
  @usableFromInline package var _expectsOtherProcess = false {
    didSet { _refresh() }
  }
  /// Whether the updater being applied was appended by another process.
  @usableFromInline package var _appliesOtherProcess = false {
    didSet { _refresh() }
  }
  /// The entry that the next journaled updater reverts, while an undo dispatches its inverse.
  @usableFromInline package var _undoing: Int? {
    didSet { _refresh() }
  }
  /// Whether a task will hand the batch over at the end of the actor's current job.
  @usableFromInline package var _handOffIsScheduled = false {
    didSet { _refresh() }
  }

  /// Creates the tape of a journal whose state holds `lastSequence` updaters, whose writer
  /// raises `snapshotWanted`.
  package init(lastSequence: Int, snapshotWanted: _JournalSignal) {
    self._numbering = _JournalNumbering(lastSequence: lastSequence)
    self._snapshotWanted = snapshotWanted
  }
}

/// A copy of the root's bytes where its scopes' kept slices lie, so that one comparison tells
/// a root update that left every such slice alone, without visiting the scopes.
///
/// A scope whose slice is a stored property (its origin is a byte range of the root) and
/// `Equatable` keeps the slice its view models were last evaluated on (`Store.lastSlice`). The
/// mirror holds that slice's bytes at the slice's place. After an update, if the root's bytes
/// there still equal the mirror's, the slice is the very value the scope keeps, bit for bit:
///
/// - every buffer the bytes point to is alive, because the kept slice holds it, so no freed
///   buffer's address can have been reused by a new one;
/// - no buffer the bytes point to was changed in place, because the kept slice shares it, so a
///   mutation through the root copies it first (copy-on-write) and changes the bytes.
///
/// So the scope's subscribers were evaluated on this very value, and skipping them is exact.
/// This assumes value semantics, as the byte-range skip does: a class instance the slice holds
/// can change without its reference changing, and such a change is not seen (nor is it by
/// `==` on the kept slice, which shares the instance). Bytes that differ while the values are
/// equal (padding, a value rebuilt in a new buffer) only send the scope to its `==`.
///
/// The mirror is raw memory: its bytes are copied and compared, never read as values, so it
/// retains nothing and runs nothing of the application's.
///
/// Its variables skip the run-time exclusivity check, read on every root update: each access is
/// a short read or write by the root, which calls no code of the application's (nor anything
/// that could reach this object) while it is open.
@usableFromInline
package final class _ScopeMirror {
  /// The mirrored bytes, as many as the root's state has.
  @usableFromInline let _bytes: UnsafeMutableRawPointer
  /// The size of the root's state.
  @usableFromInline let _size: Int
  /// The byte ranges of the member scopes' slices, sorted and merged: the first, kept apart so
  /// that the usual single span is read without touching an array, and the rest.
  // Unchecked: written only by the root between notifications, read by copy; no user code
  // runs while an access is open (see the type's comment and `ScopeMirrorTests`).
  #if !STATESTORE_CHECKED_EXCLUSIVITY
    @exclusivity(unchecked)
  #endif
  @usableFromInline var _firstSpan: Range<Int> = 0..<0
  // Unchecked: written only by the root between notifications, read by copy; no user code
  // runs while an access is open (see the type's comment and `ScopeMirrorTests`).
  #if !STATESTORE_CHECKED_EXCLUSIVITY
    @exclusivity(unchecked)
  #endif
  @usableFromInline var _otherSpans: [Range<Int>] = []
  /// How many member scopes' slices the mirror does not hold now.
  // Unchecked: written only by the root between notifications, read by copy; no user code
  // runs while an access is open (see the type's comment and `ScopeMirrorTests`).
  #if !STATESTORE_CHECKED_EXCLUSIVITY
    @exclusivity(unchecked)
  #endif
  @usableFromInline var _unmirrored = 0
  /// Whether the scopes' memberships changed since the lists were built.
  // Unchecked: written only by the root between notifications, read by copy; no user code
  // runs while an access is open (see the type's comment and `ScopeMirrorTests`).
  #if !STATESTORE_CHECKED_EXCLUSIVITY
    @exclusivity(unchecked)
  #endif
  @usableFromInline var _needsRebuild = true
  /// Where the root's scopes note their cancellations: their sweep runs when notified, so an
  /// update after a cancellation notifies every scope.
  @usableFromInline let _cancellations = _CancellationLog()

  @usableFromInline
  init(size: Int) {
    self._size = size
    _bytes = UnsafeMutableRawPointer.allocate(byteCount: max(size, 1), alignment: 16)
    _bytes.initializeMemory(as: UInt8.self, repeating: 0, count: max(size, 1))
  }

  deinit {
    _bytes.deallocate()
  }

}
