// The root's runtime: how a dispatch reaches the state and what runs after it. Its storage,
// and the proofs of the accesses that skip the run-time check, are in
// `Unchecked/UncheckedEngineStorage.swift`; what a scope's change does there, in
// `Unchecked/UncheckedRootHandle.swift`.

import Synchronization

/// What runs after a change of a root's state.
///
/// One value, recomputed when the root's observers, its update observers or its scopes with
/// observers come and go, so that every way a change is applied (the root's `dispatch`, a
/// queued updater, a scope's change in place, the unobserved scoped path) switches on the same
/// answer, and a new kind of observer changes one place: `_RootEngine._refreshFlags(store:)`.
@usableFromInline
struct _AfterChange: Equatable, Sendable {
  /// The path a change takes.
  @usableFromInline
  enum Path: UInt8, Sendable {
    /// Nothing observes the root: the updater runs alone.
    case updaterAlone
    /// The journal alone: the updater runs, then the journal is told, with its cause.
    case journalAlone
    /// Listeners, subscribers or scopes, and nothing that sees each updater as a value.
    case notify
    /// Update observers, or the journal beside other observers: each updater is boxed for
    /// them, then the rest are notified.
    case recordAndNotify
  }

  /// The path a change takes.
  @usableFromInline var path: Path
  /// Whether the state from before the change is kept: a listener of the root, or of a scope,
  /// wants `(old, new)`.
  @usableFromInline var keepsOldState: Bool
  /// Whether a scope keeps its slice for `==` (see `Store.lastSlice`): a scope's in-place
  /// change that may change such a slice drops it first, so that it mutates without copying.
  @usableFromInline var scopesKeepSlices: Bool

  /// Nothing runs after a change.
  @usableFromInline static let nothing = _AfterChange(
    path: .updaterAlone, keepsOldState: false, scopesKeepSlices: false)

  @usableFromInline
  init(path: Path, keepsOldState: Bool, scopesKeepSlices: Bool) {
    self.path = path
    self.keepsOldState = keepsOldState
    self.scopesKeepSlices = scopesKeepSlices
  }

  /// Whether something sees each updater as a value, with its cause: update observers or the
  /// journal.
  @inlinable
  var recordsUpdaters: Bool { path == .journalAlone || path == .recordAndNotify }
}

extension _RootEngine {
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
    _ updater: any StateUpdater<S>, admission: _ScopeAdmission?, site: DispatchSite?,
    store: Store<S, Dependencies>
  ) {
    _enqueue(
      _QueuedDispatch(
        updater, cause: observedCause(), site: observesUpdaters ? site : nil,
        admission: admission),
      store: store)
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
  var observesUpdaters: Bool { _afterChange.recordsUpdaters }

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
      if !_hasInterceptors {
        if let apply = next._apply {
          apply(self, store)
        } else {
          finish(
            next._dispatchable, cause: next._cause, site: next._site, perform: next._perform,
            store: store)
        }
      } else {
        runInterceptor(
          at: 0, next._dispatchable, cause: next._cause, site: next._site, perform: next._perform,
          store: store)
      }
    }
  }

  private func runInterceptor(
    at index: Int, _ dispatchable: any Dispatchable, cause: DispatchCause?, site: DispatchSite?,
    perform: (@MainActor (any Dispatchable) -> Bool)?, store: Store<S, Dependencies>
  ) {
    guard index < _interceptors.count else {
      finish(dispatchable, cause: cause, site: site, perform: perform, store: store)
      return
    }
    // The interceptor may call `next` later, after the store is gone: it then does nothing.
    _interceptors[index].body(dispatchable, store.interceptorContext) {
      [weak store] forwarded in
      guard let store else { return }
      store._rootEngine.runInterceptor(
        at: index + 1, forwarded, cause: cause, site: site, perform: perform, store: store)
    }
  }

  /// The end of the chain: apply an updater, or hand anything else to whoever runs it.
  private func finish(
    _ dispatchable: any Dispatchable, cause: DispatchCause?, site: DispatchSite?,
    perform: (@MainActor (any Dispatchable) -> Bool)?, store: Store<S, Dependencies>
  ) {
    // The plain conformance check first: casting to the constrained existential checks the
    // same-type requirement through the runtime's demangler, microseconds that every side
    // effect and navigation request ending here would pay for the answer "no".
    if dispatchable is any StateUpdater, let updater = dispatchable as? any StateUpdater<S> {
      apply(updater, cause: cause, site: site, store: store)
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
  ///
  /// `site` is the `dispatch` call that sent it, for update observers.
  @inlinable
  func apply<U: StateUpdater>(
    _ updater: U, cause: @autoclosure () -> DispatchCause?, site: DispatchSite?,
    store: Store<S, Dependencies>
  ) where U.StateType == S {
    // A store without observers, or with its journal alone, runs the updater with no closure
    // through `applyChange`, which is too large to be inlined. `Store.dispatch(_:)` switches
    // the same way itself, before calling this.
    switch _afterChange.path {
    case .updaterAlone:
      runChange({ updater.updateState(&$0) })
    case .journalAlone:
      applyJournaled(updater, cause: cause())
    case .notify, .recordAndNotify:
      applyChange(
        { updater.updateState(&$0) }, origin: Self._origin(of: updater), forgetsKeptSlices: false,
        notifyingUpdateObservers: {
          notifyUpdateObservers(updater, cause: cause(), site: site, store: store)
        },
        store: store)
    }
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

  /// ``apply(_:cause:site:store:)``, out of line, with the current cause and the site of the
  /// `dispatch` call, which is built here, only on this path: a store that nothing records
  /// never makes one.
  @inlinable @inline(never)
  func _applyOutOfLine<U: StateUpdater>(
    _ updater: U, fileID: String, line: Int, store: Store<S, Dependencies>
  ) where U.StateType == S {
    apply(
      updater, cause: currentCause(),
      site: observesUpdaters ? DispatchSite(fileID: fileID, line: line) : nil, store: store)
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
    let after = _afterChange
    if !after.keepsOldState {
      if forgetsKeptSlices && after.scopesKeepSlices { _forgetSlices(changedBy: origin()) }
      runChange(change)
      if after.recordsUpdaters { notifyUpdateObservers() }
      notifyObservers(origin: origin(), store: store)
    } else {
      // Kept only while a listener wants it: making an empty `S?` of a large state writes all
      // its bytes, so the branch above passes no `S?` at all.
      let old: S? = store._listeners.isEmpty ? nil : _currentState
      _captureScopeSlices()
      if forgetsKeptSlices && after.scopesKeepSlices { _forgetSlices(changedBy: origin()) }
      runChange(change)
      if after.recordsUpdaters { notifyUpdateObservers() }
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

  /// The part of the state `updater` could have changed: its scope's slice, if it is scoped.
  @usableFromInline
  static func _origin(of updater: some StateUpdater<S>) -> _SliceOrigin {
    (updater as? any _ScopedUpdaterPlumbing)?.scopedOrigin ?? .everything
  }

  // MARK: - Notifying

  /// Recomputes the flags of the apply path from what observes the root now.
  @usableFromInline
  func _refreshFlags(store: Store<S, Dependencies>) {
    // Cancelled update observers go first; released after the write, from `before`.
    let before = _updateObservers
    defer { withExtendedLifetime(before) {} }
    _updateObservers.removeAll { !$0._isActive }
    let notifies = store._hasObservers || !_scopeNodes.isEmpty
    let records = _journal != nil || !_updateObservers.isEmpty
    let path: _AfterChange.Path
    switch (records, notifies) {
    case (false, false): path = .updaterAlone
    case (false, true): path = .notify
    case (true, false): path = _updateObservers.isEmpty ? .journalAlone : .recordAndNotify
    case (true, true): path = .recordAndNotify
    }
    _afterChange = _AfterChange(
      path: path,
      keepsOldState: !store._listeners.isEmpty || _scopeNodes.contains { $0._keepsOldSlice },
      scopesKeepSlices: _scopeNodes.contains { $0._keepsLastSlice })
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
    _ updater: U, cause: DispatchCause?, site: DispatchSite?, store: Store<S, Dependencies>
  ) where U.StateType == S {
    if let _journal { _journal(updater, cause) }
    if _updateObservers.isEmpty { return }
    let update = AppliedUpdate(updater: updater, cause: cause, sequence: _version, site: site)
    for entry in _updateObservers {
      entry.callback?(update)
    }
  }

}

/// The part of a dispatch that does not depend on the root's types: what the root's own fast
/// path and a scope's change in place share.
extension _EngineCore {
  /// Whether anything at all must run after an updater is applied: the store's own observers,
  /// update observers, the journal, or scopes with observers.
  @inlinable
  final var _hasObservers: Bool { _afterChange.path != .updaterAlone }

  /// Whether a dispatch made now would be applied on the spot: idle, with no interceptors.
  @inlinable
  final var _appliesAtOnce: Bool { !_isDispatching && !_hasInterceptors }

  /// Whether a scope's dispatch made now would be applied on the spot with nothing to run
  /// after it: idle, with no interceptors and nothing observing the root (no update observer
  /// either, which `hasObservers` counts).
  @inlinable
  final var _appliesAtOnceUnobserved: Bool { _appliesAtOnce && !_hasObservers }

  /// The one place where the state is modified: runs `change`, the updater's `inout` access
  /// to the state (or to a slice of it, at its address), with the flag that forbids reading
  /// the state meanwhile, and counts the update.
  @inlinable @inline(__always)
  final func runChange(_ change: () -> Void) {
    _isApplyingUpdater = true
    change()
    _isApplyingUpdater = false
    _version &+= 1
  }

  /// Applies a scope's `change` to a root nothing observes, which ``_appliesAtOnceUnobserved``
  /// said: marks the root busy around it, so a dispatch from inside it is queued, then runs
  /// what was queued, with the store held (through `root`), if the store is still alive.
  @inlinable @inline(__always)
  final func applyUnobserved(from root: _RootHandle, _ change: () -> Void) {
    _isDispatching = true
    runChange(change)
    _isDispatching = false
    if _hasQueued { root._drainQueue() }
  }
}
