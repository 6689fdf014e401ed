// The root's engine as a store's runtime: the root's answers to what a store asks its role
// (`Store/StoreRuntime.swift`), and the root's side of the ways in that a scope answers
// differently.

extension _RootEngine {
  /// `store`, which asks this engine as its runtime, with its type.
  ///
  /// A root's engine is made by its store's initializer, with the store's own types, and is
  /// held by that store alone (its scopes' handle holds the engine, never asks it as a
  /// runtime), so every store that passes itself here is a `Store<S, Dependencies>`. The cast
  /// is checked all the same: a store of other types would stop the process with a message,
  /// never reach the engine. None of these requirements is on a dispatch's path.
  @usableFromInline
  func _own<D: Sendable>(_ store: Store<S, D>) -> Store<S, Dependencies> {
    guard let own = store as? Store<S, Dependencies> else {
      preconditionFailure(
        "StateStore: the root engine of a Store<\(S.self), \(Dependencies.self)> was asked by "
          + "a Store<\(S.self), \(D.self)>")
    }
    return own
  }

  // MARK: - The root's ways in

  /// Queues `dispatchable`, whose type is known only at run time, with its cause and, when
  /// something records it, its site.
  @usableFromInline
  func _dispatchAny(
    _ dispatchable: any Dispatchable, site: DispatchSite, store: Store<S, Dependencies>
  ) {
    _enqueue(
      _QueuedDispatch(
        dispatchable, cause: observedCause(), site: observesUpdaters ? site : nil),
      store: store)
  }

  /// Queues `dispatchable` for the interceptors, handing what reaches the end to `perform`.
  @usableFromInline
  func _interceptAny(
    _ dispatchable: any Dispatchable, admission: _ScopeAdmission?,
    then perform: @escaping @MainActor (any Dispatchable) -> Bool, store: Store<S, Dependencies>
  ) {
    _enqueue(
      _QueuedDispatch(
        dispatchable, cause: observedCause(), perform: perform, admission: admission),
      store: store)
  }

  /// Registers an observer of every updater the root applies.
  @usableFromInline
  func _addUpdateObserver(
    _ observer: @escaping @MainActor (AppliedUpdate<S>) -> Void, store: Store<S, Dependencies>
  ) -> Subscription {
    let entry = _UpdateObserverEntry(observer)
    _updateObservers.append(entry)
    store._refreshHasObservers()
    // The token holds the entry strongly: a weak reference would give the entry a side table,
    // and every dispatch retains it to call it, through the side table's slow path (a fifth
    // of a journaled store's dispatch, P1 in store-bench). An observer that holds its own
    // token makes a cycle through the entry, which the store's deinitializer breaks by
    // clearing its observers.
    return Subscription { [_cancellationLog = store._cancellationLog, entry] in
      entry._clear()
      _cancellationLog._note()
    }
  }
}

extension _RootEngine: _StoreRuntime {
  @usableFromInline package func _liveState() -> S? { _currentState }
  @usableFromInline package var _subscriptionVersion: UInt64 { _version }
  @usableFromInline package var _isInsideUpdater: Bool { _isApplyingUpdater }
  @usableFromInline package var _reachesEndAtOnce: Bool { _appliesAtOnce }
  @usableFromInline package var _scopePath: String? { nil }
  @usableFromInline package func _dropReasonNow() -> ScopeDispatchDroppedError.Reason? { nil }
  @usableFromInline package func _root<D: Sendable>(of store: Store<S, D>) -> (any _ScopeRoot)? {
    store
  }
  @usableFromInline package func _dispatch<D: Sendable>(
    any dispatchable: any Dispatchable, site: DispatchSite, store: Store<S, D>
  ) { _dispatchAny(dispatchable, site: site, store: _own(store)) }
  @usableFromInline package func _intercept<D: Sendable>(
    _ dispatchable: any Dispatchable, admission: _ScopeAdmission?,
    then perform: @escaping @MainActor (any Dispatchable) -> Bool, store: Store<S, D>
  ) { _interceptAny(dispatchable, admission: admission, then: perform, store: _own(store)) }
  @usableFromInline package func _runAsCallback<D: Sendable>(
    _ callback: () -> Void, store: Store<S, D>
  ) {
    runAsCallback(callback, store: _own(store))
  }
  @usableFromInline package func _observeUpdates<D: Sendable>(
    _ observer: @escaping @MainActor (AppliedUpdate<S>) -> Void, store: Store<S, D>
  ) -> Subscription { _addUpdateObserver(observer, store: _own(store)) }
  @usableFromInline package func _observersChanged<D: Sendable>(store: Store<S, D>) {
    _refreshFlags(store: _own(store))
  }
  @usableFromInline package func _storeIsGoing() { _rootIsGoing() }
  @usableFromInline package func _storeIsGone() { _releaseUnlessLent() }
}
