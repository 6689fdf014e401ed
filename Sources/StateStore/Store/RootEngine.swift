// The root's runtime: how a dispatch reaches the state and what runs after it, in one type,
// `_RootEngine`, which a root store owns and a scope never has. The store (`Store.swift`) is
// the façade both roles share; its `dispatch` methods, at the end of this file, hand a root's
// dispatch to its engine and a scope's to its link (`Scopes/ScopeLink.swift`), whose root link,
// made here, comes back to the same engine.
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
// - The flags (`isDispatching`, `isApplyingUpdater`, `hasObservers`, `journalsAlone`, `keepsOldState`,
//   `scopesKeepSlices`) are plain values, read by copy and written by assignment, never passed
//   `inout`, so no access to one spans any call.
// - The observer lists (`updateObservers`, `scopeNodes`, `unmirroredScopeNodes`) follow the
//   store's rule for its own lists (see `listeners` in `Store.swift`): read by copying them,
//   written by short appends, removals and assignments that call nothing outside the store,
//   with what a write releases kept alive until after it.

import Synchronization

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
  /// Whether an update must keep the state from before it.
  ///
  /// A listener of the root, or of a scope, wants `(old, new)`.
  // Unchecked: a flag (see the top of this file).
  #if !STATESTORE_CHECKED_EXCLUSIVITY
    @exclusivity(unchecked)
  #endif
  @usableFromInline var _keepsOldState = false
  /// Whether a scope keeps its slice for `==` (see `Store.lastSlice`).
  ///
  /// A scope's in-place dispatch that may change such a slice drops it first, so that the
  /// dispatch mutates without copying.
  // Unchecked: a flag (see the top of this file).
  #if !STATESTORE_CHECKED_EXCLUSIVITY
    @exclusivity(unchecked)
  #endif
  @usableFromInline var _scopesKeepSlices = false
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
  /// The steps every dispatchable passes through, in order.
  @usableFromInline let _interceptors: [StoreInterceptor<S>]
  /// The observers of applied updaters (an action recorder, a test store).
  // Unchecked: an observer list (see the top of this file).
  #if !STATESTORE_CHECKED_EXCLUSIVITY
    @exclusivity(unchecked)
  #endif
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
  /// Whether the journal is all that observes the root: an update then runs the updater and
  /// the journal's hook, nothing else.
  // Unchecked: a flag (see the top of this file).
  #if !STATESTORE_CHECKED_EXCLUSIVITY
    @exclusivity(unchecked)
  #endif
  @usableFromInline var _journalsAlone = false
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
  /// Cleared as the root's deinitializer begins (see ``_RootHandle``).
  @usableFromInline var _rootReference: _RootHandle?

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
    _hasObservers = journal != nil
    _journalsAlone = journal != nil
  }

  // Runs where the last reference goes, on the main actor: with the store (whose own
  // deinitializer is isolated), or after a scope's in-place dispatch that the store's release
  // interrupted (see `RootHandle.survivingEngine`), never inside an access to the state. The
  // deinitializers of the state's values run here, as they would for a stored property.
  isolated deinit {
    _state.deinitialize(count: 1)
    _state.deallocate()
  }

  // MARK: - The queue

  /// The one way into the queue: appends `queued` behind the dispatch in progress, or, when
  /// the store is idle, runs it through the interceptors at once.
  @usableFromInline
  func _enqueue(_ queued: _QueuedDispatch<S, Dependencies>, store: Store<S, Dependencies>) {
    _queue.append(queued)
    _hasQueued = true
    if !_isDispatching { _drainQueue(store: store) }
  }

  /// Queues an updater that a scope wrapped, like any dispatch; with an admission, to be run
  /// in its turn, before the interceptors (see `ScopeLink.forward`).
  @usableFromInline
  func _enqueueFromScope(
    _ updater: any StateUpdater<S>, admission: _ScopeAdmission?, store: Store<S, Dependencies>
  ) {
    _enqueue(
      _QueuedDispatch(updater, cause: observedCause(), admission: admission), store: store)
  }

  /// Ends a dispatch applied at once: the store is idle again, and what the dispatch queued
  /// runs now.
  @inlinable
  func endDispatch(store: Store<S, Dependencies>) {
    _isDispatching = false
    if _queueHead < _queue.count { _drainQueue(store: store) }
  }

  /// Whether anything is told of each updater as a value: update observers or the journal.
  @inlinable
  var observesUpdaters: Bool { !_updateObservers.isEmpty || _journal != nil }

  /// The cause to record with a dispatch: read only when an update observer or the journal
  /// will see it.
  @inlinable
  func observedCause() -> DispatchCause? {
    observesUpdaters ? currentCause() : nil
  }

  /// ``DispatchCause/current``, read through `TaskLocal`'s own getter.
  @inlinable
  func currentCause() -> DispatchCause? {
    DispatchCause.current
  }

  /// Runs the queue until it is empty, each dispatchable through the interceptors.
  @usableFromInline
  func _drainQueue(store: Store<S, Dependencies>) {
    guard !_isDispatching else { return }
    _isDispatching = true
    defer { _isDispatching = false }
    while _queueHead < _queue.count {
      // Moved out: released at the end of this turn, with no access to `queue` open.
      let taken = _queue[_queueHead].take()
      _queueHead += 1
      if _queueHead == _queue.count {
        _queue.removeAll(keepingCapacity: true)
        _queueHead = 0
        _hasQueued = false
      }
      guard let next = taken else { continue }
      // A scope's dispatch made inside an updater, checked now that no access is open.
      if let admission = next._admission, !admission() { continue }
      if _interceptors.isEmpty {
        if let apply = next._apply {
          apply(self, store)
        } else {
          finish(next._dispatchable, cause: next._cause, perform: next._perform, store: store)
        }
      } else {
        runInterceptor(
          at: 0, next._dispatchable, cause: next._cause, perform: next._perform, store: store)
      }
    }
  }

  private func runInterceptor(
    at index: Int, _ dispatchable: any Dispatchable, cause: DispatchCause?,
    perform: (@MainActor (any Dispatchable) -> Bool)?, store: Store<S, Dependencies>
  ) {
    guard index < _interceptors.count else {
      finish(dispatchable, cause: cause, perform: perform, store: store)
      return
    }
    // The interceptor may call `next` later, after the store is gone: it then does nothing.
    _interceptors[index].body(dispatchable, store.interceptorContext) {
      [weak store] forwarded in
      guard let store, let engine = store._engine else { return }
      engine.runInterceptor(
        at: index + 1, forwarded, cause: cause, perform: perform, store: store)
    }
  }

  /// The end of the chain: apply an updater, or hand anything else to whoever runs it.
  private func finish(
    _ dispatchable: any Dispatchable, cause: DispatchCause?,
    perform: (@MainActor (any Dispatchable) -> Bool)?, store: Store<S, Dependencies>
  ) {
    // The plain conformance check first: casting to the constrained existential checks the
    // same-type requirement through the runtime's demangler, microseconds that every side
    // effect and navigation request ending here would pay for the answer "no".
    if dispatchable is any StateUpdater, let updater = dispatchable as? any StateUpdater<S> {
      apply(updater, cause: cause, store: store)
    } else if let perform, perform(dispatchable) {
      return
    } else if let executable = dispatchable as? any ExecutableDispatchable {
      executable._start(in: store)
    } else {
      store.onUnhandledError(
        UnhandledDispatchableError(typeName: String(reflecting: type(of: dispatchable))),
        dispatchable)
    }
  }

  /// Runs `callback`, a call the store makes into user code outside a dispatch (a subscriber's
  /// first value), with the store marked busy: a dispatch it makes is queued and applied after
  /// it returns, as every re-entrant dispatch is.
  @inlinable
  func runAsCallback(_ callback: () -> Void, store: Store<S, Dependencies>) {
    if _isDispatching {
      callback()
      return
    }
    _isDispatching = true
    callback()
    endDispatch(store: store)
  }

  // MARK: - The apply path

  /// Applies `updater` through the one apply path, telling the journal and update observers
  /// about it; `cause` is read only when one of them is told, once.
  @inlinable
  func apply<U: StateUpdater>(
    _ updater: U, cause: @autoclosure () -> DispatchCause?, store: Store<S, Dependencies>
  ) where U.StateType == S {
    // The apply path's first step, repeated here for a queued updater (`drainQueue`): a store
    // without observers runs it with no closure through `applyChange`, which is too large to
    // be inlined. `Store.dispatch(_:)` takes the same step itself, before calling this.
    guard _hasObservers else {
      runChange({ updater.updateState(&$0) })
      return
    }
    if _journalsAlone {
      applyJournaled(updater, cause: cause())
      return
    }
    applyChange(
      { updater.updateState(&$0) }, origin: Self._origin(of: updater), forgetsKeptSlices: false,
      notifyingUpdateObservers: { notifyUpdateObservers(updater, cause: cause(), store: store) },
      store: store)
  }

  /// Applies `updater` to a root that nothing but its journal observes, then journals it
  /// with `cause`: no list to sweep, nothing to notify.
  @inlinable
  func applyJournaled<U: StateUpdater>(_ updater: U, cause: DispatchCause?)
  where U.StateType == S {
    runChange({ updater.updateState(&$0) })
    journal(updater, cause: cause)
  }

  /// Journals `updater`, which `Store.dispatch(_:)` just applied to a root that nothing but
  /// its journal observes, with the current cause.
  ///
  /// Out of line, so that the dispatch runs the updater inlined into the caller as an
  /// unobserved dispatch does, and only the journal's part is a call (P1 in store-bench).
  @inlinable @inline(never)
  func _journalApplied<U: StateUpdater>(_ updater: U) where U.StateType == S {
    // Only a root with a journal: `_hasObservers` may have been set by the updater's own code.
    guard _journal != nil else { return }
    journal(updater, cause: currentCause())
  }

  /// Tells the journal about `updater`, just applied, with `cause`.
  @inlinable @inline(__always)
  func journal<U: StateUpdater>(_ updater: U, cause: DispatchCause?) where U.StateType == S {
    // Most updaters the store appends itself; the journal's hook sees the rest.
    if _tape == nil || !_tape.unsafelyUnwrapped._append(updater, cause: cause) {
      _journal?(updater, cause)
    }
  }

  /// ``apply(_:cause:store:)``, out of line, with the current cause.
  @inlinable @inline(never)
  func _applyOutOfLine<U: StateUpdater>(_ updater: U, store: Store<S, Dependencies>)
  where U.StateType == S {
    apply(updater, cause: currentCause(), store: store)
  }

  /// Applies a scope's `body` to the state at once, as `dispatch` applies an updater.
  ///
  /// Only when nothing needs the updater as a value: the root is idle and has no interceptors
  /// nor update observers. Otherwise answers `.busy`, and the scope queues a ``ScopedUpdater``.
  ///
  /// Called by the root link's closures with the root's handle and no reference to the store
  /// or to this engine of their own (see ``_RootHandle/_survivingEngine``): a root that nothing
  /// observes is changed with no retain and release at all. What needs the store (notifying
  /// observers, draining what `body` queued) takes it from `root` first.
  @inlinable
  func applyInPlace(
    origin: _SliceOrigin, root: _RootReference<S, Dependencies>, _ body: (inout S) -> Void
  ) -> _ScopeDispatchOutcome {
    if !_appliesAtOnce || observesUpdaters { return .busy }
    if _hasObservers { return _applyObservedInPlace(origin: origin, body, root: root) }
    applyUnobserved(from: root) { body(&_currentState) }
    return .applied
  }

  /// `applyInPlace`'s path for a root with observers: the one apply path, out of line, with
  /// the store held for the whole of it.
  ///
  /// Out of line so that what is left of `applyInPlace` is small enough for the compiler to
  /// inline into the root link's closures: a scope's dispatch to a root nothing observes then
  /// makes one call less (S1: 672 → 605 instructions a dispatch, with `dispatchThroughScope`
  /// inlined into `dispatchLater`).
  @inlinable @inline(never)
  func _applyObservedInPlace(
    origin: _SliceOrigin, _ body: (inout S) -> Void, root: _RootReference<S, Dependencies>
  ) -> _ScopeDispatchOutcome {
    guard let store = root.store else { return .dropped(.rootReleased) }
    _isDispatching = true
    applyChange(
      body, origin: origin, forgetsKeptSlices: true, notifyingUpdateObservers: {}, store: store)
    endDispatch(store: store)
    return .applied
  }

  /// The one apply path: sweeps cancelled entries, keeps what the observers need from before
  /// the change, runs `change`, then tells, in order, the update observers, the `(old, new)`
  /// listeners, the view-model and key-path subscribers, the element subscribers and the
  /// scopes.
  ///
  /// A store with nothing observing it runs `change` alone. `origin` is the part of the state
  /// the change could touch, found only when a scope needs it (it takes a dynamic cast). With
  /// `forgetsKeptSlices` (a scope's in-place change), the slices that scopes keep for `==` and
  /// that `origin` may change are dropped first, so the change mutates in place instead of
  /// copying for them.
  @inlinable
  func applyChange(
    _ change: (inout S) -> Void, origin: @autoclosure () -> _SliceOrigin, forgetsKeptSlices: Bool,
    notifyingUpdateObservers notifyUpdateObservers: () -> Void, store: Store<S, Dependencies>
  ) {
    // Only a store with observers has entries to sweep, so a store without pays nothing.
    guard _hasObservers else {
      runChange(change)
      return
    }
    if store._cancellationLog._count.load(ordering: .relaxed) != 0 {
      store._sweepCancelledEntries()
      guard _hasObservers else {
        runChange(change)
        return
      }
    }
    if !_keepsOldState {
      if forgetsKeptSlices && _scopesKeepSlices { _forgetSlices(changedBy: origin()) }
      runChange(change)
      if observesUpdaters { notifyUpdateObservers() }
      notifyObservers(origin: origin(), store: store)
    } else {
      // Kept only while a listener wants it: making an empty `S?` of a large state writes all
      // its bytes, so the branch above passes no `S?` at all.
      let old: S? = store._listeners.isEmpty ? nil : _currentState
      _captureScopeSlices()
      if forgetsKeptSlices && _scopesKeepSlices { _forgetSlices(changedBy: origin()) }
      runChange(change)
      if observesUpdaters { notifyUpdateObservers() }
      if let old { notifyListeners(old: old, store: store) }
      notifyObservers(origin: origin(), store: store)
    }
  }

  /// Runs `change` on the state through the one place where it is modified
  /// (`EngineCore.runChange(_:)`).
  @inlinable
  func runChange(_ change: (inout S) -> Void) {
    runChange { change(&_currentState) }
  }

  /// Calls `body` with the state's address, so that a scope copies its slice alone.
  ///
  /// An access to `currentState` beside the updater's (see the top of this file): scopes read
  /// after the updater returned or before it starts (`state` checks; notifying and queueing
  /// come after), and `body` copies bytes out, calling no code of the application's, so no
  /// dispatch can begin inside the access. A method rather than a closure, as in
  /// `Store.lookupTable(of:)`.
  @inlinable
  func peekState(_ body: (UnsafeRawPointer) -> Void) {
    _ScopeLink<S>.withAddress(of: &_currentState, body)
  }

  /// The part of the state `updater` could have changed: its scope's slice, if it is scoped.
  @usableFromInline
  static func _origin(of updater: some StateUpdater<S>) -> _SliceOrigin {
    (updater as? any _ScopedUpdaterPlumbing)?.scopedOrigin ?? .everything
  }

  // MARK: - Notifying

  /// Recomputes the flags of the apply path from what observes the root now.
  @usableFromInline
  func _refreshFlags(store: Store<S, Dependencies>) {
    _hasObservers = store._hasObservers || observesUpdaters || !_scopeNodes.isEmpty
    _journalsAlone =
      _journal != nil && !store._hasObservers && _updateObservers.isEmpty && _scopeNodes.isEmpty
    _keepsOldState = !store._listeners.isEmpty || _scopeNodes.contains { $0._keepsOldSlice }
    _scopesKeepSlices = _scopeNodes.contains { $0._keepsLastSlice }
  }

  /// Tells the `(old, new)` listeners about the change just made.
  @inlinable
  func notifyListeners(old: S, store: Store<S, Dependencies>) {
    for entry in store._listeners {
      entry.callback?(old, _currentState)
    }
  }

  /// Tells subscribers and scopes about the change just made; `origin` is the part of the state
  /// the updater could have changed, for scopes to skip a change outside their slice; found only
  /// when a scope needs it, as it takes a dynamic cast.
  @inlinable
  func notifyObservers(
    origin: @autoclosure () -> _SliceOrigin, store: Store<S, Dependencies>
  ) {
    if !store._selectionOrder.isEmpty {
      for group in store._selectionOrder {
        group.refresh(_currentState, version: _version)
      }
    }
    if !store._elementOrder.isEmpty {
      for group in store._elementOrder {
        group.refresh(_currentState)
      }
    }
    if !_scopeNodes.isEmpty {
      notifyScopes(origin: origin, store: store)
    }
  }

  /// Tells the journal, then the update observers; inlinable so that boxing the updater runs
  /// as code specialised for its type (generic code looks up the existential's metadata on
  /// every update).
  @inlinable
  func notifyUpdateObservers<U: StateUpdater>(
    _ updater: U, cause: DispatchCause?, store: Store<S, Dependencies>
  ) where U.StateType == S {
    if let _journal { _journal(updater, cause) }
    if _updateObservers.isEmpty { return }
    let update = AppliedUpdate(updater: updater, cause: cause, sequence: _version)
    for entry in _updateObservers {
      entry.callback?(update)
    }
  }

  // MARK: - Scopes

  /// The link scopes of the root compose, made on first use.
  ///
  /// Inlinable, as the `scope` methods that call it, so that its closures, run on every scoped
  /// dispatch, are specialised for the application's state.
  @inlinable
  func rootLink(of store: Store<S, Dependencies>) -> _ScopeLink<S> {
    if let _rootLink { return _rootLink }
    // Not a weak reference: see `RootHandle`. The store clears it as its deinitializer begins.
    // The closures that read or change the state reach this engine through it without
    // retaining anything (`RootReference.withEngine`); the others take the store from it
    // first, a strong reference held for the call.
    let root = _RootReference(store, engine: self)
    _rootReference = root
    let mirror = _scopeMirror
    let link = _ScopeLink<S>(
      rootHandle: root, path: "", name: "", origin: .bytes(0..<MemoryLayout<S>.size),
      identity: _ScopeIdentity(),
      read: { root.withEngine({ $0._currentState }, ifReleased: nil) },
      peek: { body in
        root.withEngine(
          { engine in
            engine.peekState(body)
            return true
          }, ifReleased: false)
      },
      withSlice: { origin, body in
        root.withEngine(
          { $0.applyInPlace(origin: origin, root: root, body) },
          ifReleased: .dropped(.rootReleased))
      },
      forward: { updater, admission in
        guard let store = root.store, let engine = store._engine else {
          return .dropped(.rootReleased)
        }
        engine._enqueueFromScope(updater, admission: admission, store: store)
        return .applied
      },
      dropReason: { root._isAlive ? nil : .rootReleased },
      register: { node in
        guard let store = root.store, let engine = store._engine else { return }
        engine._addScopeNode(node, store: store)
      },
      observersChanged: { root.store?._refreshHasObservers() }, relay: mirror._cancellations,
      isUnderElement: false,
      withRootBytes: { offset, origin, body in
        root.withEngine(
          { engine in
            engine.applyInPlace(origin: origin, root: root) {
              _ScopeLink<S>.withMutableBytes(of: &$0, at: offset, body)
            }
          }, ifReleased: .dropped(.rootReleased))
      })
    _rootLink = link
    return link
  }

  /// Drops the slices kept for `==` that a scoped dispatch from `origin` may change.
  ///
  /// The dispatch then changes the root's collections in place instead of copying them for a
  /// kept slice; those scopes' subscribers are evaluated, as the bytes say.
  ///
  /// - Complexity: O(scopes with observers).
  @usableFromInline
  func _forgetSlices(changedBy origin: _SliceOrigin) {
    for node in _scopeNodes where node._keepsLastSlice && origin.mayChange(node._origin) {
      node._forgetSlice()
    }
  }

  /// Registers the node of a scope that has observers, to be notified after every update.
  @usableFromInline
  func _addScopeNode(_ node: _ScopeNode, store: Store<S, Dependencies>) {
    node._mirror = _scopeMirror
    _scopeMirror._needsRebuild = true
    _scopeNodes.append(node)
    store._refreshHasObservers()
  }

  /// Lets scopes with `(old, new)` listeners keep their slice from before the update.
  @usableFromInline
  func _captureScopeSlices() {
    for node in _scopeNodes where node._keepsOldSlice { node._capture() }
  }

  /// Notifies the scopes with observers; drops those left without any.
  ///
  /// A scope in the mirror (a stored, `Equatable` slice kept for `==`) is skipped when the
  /// root's bytes at its slice still equal the kept slice's (see ``_ScopeMirror``): when all
  /// of them do, which one comparison of the mirrored bytes tells, only the scopes outside the
  /// mirror are visited. After a cancellation in any scope every scope is visited once, since
  /// a visit sweeps.
  ///
  /// - Complexity: O(the mirrored bytes + the scopes outside the mirror) when no mirrored
  ///   slice changed; otherwise O(scopes with observers, the element scopes of one array
  ///   counting as one group). Plus what each visited scope's subscribers cost when its slice
  ///   may have changed; a group costs the journal's length plus the scopes of the elements
  ///   that changed.
  @inlinable
  func notifyScopes(origin: () -> _SliceOrigin, store: Store<S, Dependencies>) {
    let mirror = _scopeMirror
    if mirror._needsRebuild { _rebuildMirror(mirror) }
    if mirror._cancellations._count.load(ordering: .relaxed) != 0 {
      mirror._cancellations._count.store(0, ordering: .relaxed)
      _refreshScopes(_scopeNodes, origin: origin(), skippingMirrored: nil, store: store)
    } else if mirror._unmirrored == 0, mirroredBytesMatch(mirror, in: nil) {
      if !_unmirroredScopeNodes.isEmpty {
        _refreshScopes(_unmirroredScopeNodes, origin: origin(), skippingMirrored: nil, store: store)
      }
    } else {
      _refreshScopes(_scopeNodes, origin: origin(), skippingMirrored: mirror, store: store)
    }
  }

  /// Refreshes `nodes`, except, with a mirror, the mirrored ones whose bytes match; copies the
  /// bytes of each member's newly kept slice into the mirror; drops the nodes left without
  /// observers.
  @usableFromInline
  func _refreshScopes(
    _ nodes: [_ScopeNode], origin: _SliceOrigin, skippingMirrored: _ScopeMirror?,
    store: Store<S, Dependencies>
  ) {
    var emptied = false
    for node in nodes {
      if let mirror = skippingMirrored, node._isMirrorMember, node._isMirrored,
        mirroredBytesMatch(mirror, in: node.mirrorRange)
      {
        continue
      }
      if !node._refresh(origin) {
        node._isActive = false
        emptied = true
      } else if node._isMirrorMember, node._holdsSlice, !node._isMirrored,
        let range = node.mirrorRange
      {
        // The scope took its slice from the root during this refresh, and the root cannot
        // change while it notifies (a dispatch from a subscriber is queued), so these bytes
        // are the kept slice's.
        _ScopeLink<S>.withAddress(of: &_currentState) { _scopeMirror.take($0, in: range) }
        node._isMirrored = true
      }
    }
    guard emptied else { return }
    // Released only after the write: see the observer lists' rule at the top of this file.
    let before = _scopeNodes
    defer { withExtendedLifetime(before) {} }
    _scopeNodes.removeAll { !$0._isActive }
    _rebuildMirror(_scopeMirror)
    store._refreshHasObservers()
  }

  /// Whether the root's bytes equal the mirror's at `range`, or over every member's slice.
  ///
  /// An access to `currentState` beside the updater's, as in `peekState(_:)`: it compares bytes
  /// and calls no code of the application's.
  ///
  /// - Complexity: O(the bytes compared).
  @inlinable
  func mirroredBytesMatch(_ mirror: _ScopeMirror, in range: Range<Int>?) -> Bool {
    var matches = false
    _ScopeLink<S>.withAddress(of: &_currentState) { root in
      matches = range.map { mirror.matches(root, in: $0) } ?? mirror.matchesEverySpan(root)
    }
    return matches
  }

  /// Sorts the scope nodes into the mirror's members and the rest.
  ///
  /// A node that joins keeps no mirrored bytes until its next refresh copies them.
  ///
  /// - Complexity: O(*n* log *n*) for *n* scopes with observers.
  @usableFromInline
  func _rebuildMirror(_ mirror: _ScopeMirror) {
    mirror._needsRebuild = false
    var ranges: [Range<Int>] = []
    var others: [_ScopeNode] = []
    var unmirrored = 0
    for node in _scopeNodes {
      let wasMember = node._isMirrorMember
      node._isMirrorMember = false
      guard let range = node.mirrorRange, node._keepsLastSlice, !node._keepsOldSlice,
        range.upperBound <= mirror._size
      else {
        node._isMirrored = false
        others.append(node)
        continue
      }
      if !wasMember { node._isMirrored = false }
      node._isMirrorMember = true
      ranges.append(range)
      if !node._isMirrored { unmirrored += 1 }
    }
    mirror.setSpans(covering: ranges)
    mirror._unmirrored = unmirrored
    // Released only after the write: a node dropped from `scopeNodes` may be the last
    // reference, and its scope's release runs the application's deinitializers.
    let before = _unmirroredScopeNodes
    defer { withExtendedLifetime(before) {} }
    _unmirroredScopeNodes = others
  }
}

// MARK: - The façade's ways in

extension Store {
  /// Applies `updater` to the state and notifies listeners and subscribers.
  ///
  /// Called while the store is notifying, the updater is queued and applied right after the
  /// current round; otherwise it is applied before this method returns.
  ///
  /// - Complexity: The updater's own cost, plus O(listeners + view-model types + changed
  ///   elements' subscribers) when anything observes the store.
  @inlinable
  public func dispatch<U: StateUpdater>(_ updater: U) where U.StateType == S {
    guard _engine?._appliesAtOnce == true else {
      dispatchLater(updater)
      return
    }
    _engine.unsafelyUnwrapped._isDispatching = true
    if !_engine.unsafelyUnwrapped._hasObservers || _engine.unsafelyUnwrapped._journalsAlone {
      // The apply path's first step, here so that a store without observers, or with its
      // journal alone, runs the updater with no call at all: `apply` is not inlined into
      // every dispatch. The journal is told after it, out of line. A journaled root always
      // has observers, so the flag read again says whether this one has a journal, even
      // when the updater's own code (a deinitializer) registered an observer meanwhile.
      _engine.unsafelyUnwrapped.runChange({ updater.updateState(&$0) })
      if _engine.unsafelyUnwrapped._hasObservers {
        _engine.unsafelyUnwrapped._journalApplied(updater)
      }
    } else {
      // The cause is read inside, once, and only when something records it.
      _engine.unsafelyUnwrapped._applyOutOfLine(updater, store: self)
    }
    _engine.unsafelyUnwrapped.endDispatch(store: self)
  }

  /// Dispatches a dispatchable whose type is known only at run time.
  ///
  /// An updater of this store's state is applied; an ``ExecutableDispatchable`` such as a side
  /// effect is started without being awaited. A dispatchable that the store cannot run is
  /// reported to ``onUnhandledError``. Prefer the typed `dispatch` overloads: they are checked at
  /// compile time (a navigation request, for example, compiles only when the store's
  /// dependencies provide a navigator). The argument label keeps this method from silently
  /// catching calls that no typed overload accepts.
  public func dispatch(any dispatchable: any Dispatchable) {
    if let _engine {
      _engine._enqueue(_QueuedDispatch(dispatchable, cause: _engine.observedCause()), store: self)
    } else if let _scopeLink {
      dispatchThroughScope(any: dispatchable, link: _scopeLink)
    }
  }

  /// Whether a dispatchable sent now would reach the end of the chain at once, unchanged: the
  /// store is a root with no interceptor, and is not dispatching (so its queue is empty).
  @usableFromInline package var _reachesEndAtOnce: Bool {
    _engine?._appliesAtOnce ?? false
  }

  /// Sends `dispatchable` through the interceptors and hands what reaches the end to `perform`.
  ///
  /// This is the hook that awaited dispatches (side effects, navigation) use: the store applies
  /// an updater itself; any other dispatchable that comes out of the chain is passed to
  /// `perform`, which returns `false` if it does not handle it (the store then starts it as an
  /// ``ExecutableDispatchable``). If an interceptor drops the dispatchable, `perform` is not
  /// called. Queued like any dispatch when the store is busy.
  package func intercept(
    _ dispatchable: any Dispatchable, admission: _ScopeAdmission? = nil,
    then perform: @escaping @MainActor (_ final: any Dispatchable) -> Bool
  ) {
    if let _engine {
      _engine._enqueue(
        _QueuedDispatch(
          dispatchable, cause: _engine.observedCause(), perform: perform, admission: admission),
        store: self)
    } else if let _scopeLink {
      interceptThroughScope(dispatchable, link: _scopeLink, then: perform)
    }
  }

  /// The slow path of `dispatch`: a scope forwards to its root, a busy or intercepted root
  /// queues.
  ///
  /// Kept out of line so that the root's fast path stays a few instructions where it is inlined
  /// (inlining the scope's path into every dispatch made W0 three times slower); still
  /// `@inlinable`, so that it is specialised for the application's types.
  @inlinable @inline(never)
  func dispatchLater<U: StateUpdater>(_ updater: U) where U.StateType == S {
    // The fields are used, not bound: a binding retains and releases (see `engine`).
    if _scopeLink != nil {
      dispatchThroughScope(updater, link: _scopeLink.unsafelyUnwrapped)
    } else if _engine != nil {
      _engine.unsafelyUnwrapped._enqueue(
        _QueuedDispatch(updater: updater, cause: _engine.unsafelyUnwrapped.observedCause()),
        store: self)
    }
  }

  /// Runs `callback`, a call the store makes into user code outside a dispatch (a subscriber's
  /// first value), with the root marked busy: a dispatch it makes is queued and applied after
  /// it returns, as every re-entrant dispatch is.
  @inlinable
  func runAsStoreCallback(_ callback: () -> Void) {
    if _engine != nil {
      // Not bound: see `engine`.
      _engine.unsafelyUnwrapped.runAsCallback(callback, store: self)
    } else if let _scopeLink {
      _scopeLink.runAsRootCallback(callback)
    }
  }
}
