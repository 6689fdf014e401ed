import Foundation
import Synchronization

// The store's storage is in `Unchecked/UncheckedStoreStorage.swift`.

extension Store {
  /// The default error report: a line on standard error.
  ///
  /// A report that cannot be written (standard error closed, or on a full disk) is dropped:
  /// `FileHandle.write(_:)` would trap on it.
  static func reportWithoutRoot(_ error: any Error, _ dispatchable: any Dispatchable) {
    try? FileHandle.standardError.write(
      contentsOf: Data(
        "StateStore: unhandled error from \(type(of: dispatchable)): \(error)\n".utf8))
  }

  /// The current state.
  ///
  /// Reading it from inside an updater (which can only happen if the updater smuggled the store
  /// in and forced its way onto the main actor) stops the process with a message: an updater
  /// gets the state `inout` and must not reach the store.
  ///
  /// - Precondition: For a scope, its slice still exists: the root has not been released and,
  ///   for an element scope (or a scope under one), the element has not been removed. A root's
  ///   state always exists. A scope whose slice is gone has no state to give, and a made-up one
  ///   (`S()`, which this returned before) would be a state the app never had, so reading it
  ///   stops the process with a message naming the scope and what went, as an `unowned`
  ///   reference would. Code that can outlive the slice (a row's view during a removal
  ///   animation, an effect that may finish after its element is deleted) reads
  ///   ``stateIfAvailable`` instead.
  public var state: S {
    checkNotInsideUpdater("read store.state")
    if let state = liveState { return state }
    _sliceIsGone("read store.state")
  }

  /// The current state, or `nil` for a scope whose slice is gone: its root was released, or its
  /// element removed.
  ///
  /// A root store always has a state. A scope of an element reads `nil` from the moment its
  /// element leaves the array, which a row's view can check before rendering:
  ///
  /// ```swift
  /// guard let todo = row.stateIfAvailable else { return }
  /// ```
  public var stateIfAvailable: S? {
    checkNotInsideUpdater("read store.stateIfAvailable")
    return liveState
  }

  /// The state as this store sees it: its own at the root, the root's slice in a scope; `nil`
  /// once a scope's root is released or its element removed.
  @inlinable
  var liveState: S? {
    // The root's read is inlined, as code specialised for the state: no call, no existential.
    _isRoot ? _rootEngine._currentState : _runtime._liveState()
  }

  /// Stops the process: `operation` needs the state of a scope whose slice is gone.
  ///
  /// Trapping is deliberate, and documented on ``state``: there is no state to give.
  @usableFromInline
  func _sliceIsGone(_ operation: String) -> Never {
    let why: String
    switch _runtime._dropReasonNow() {
    case .elementRemoved(let id)?: why = "its element (id \(id)) was removed"
    default: why = "its root store has been released"
    }
    let path = _runtime._scopePath.map { "\"\($0)\" " } ?? ""
    preconditionFailure(
      "StateStore: \(operation) on the scope \(path)of \(S.self), whose slice is gone: \(why). "
        + "A scope can outlive its slice; read stateIfAvailable there, which is nil once the "
        + "slice is gone.")
  }

  /// Stops the process if an updater is running: `operation` would read the state while the
  /// updater holds it `inout`, which Swift's exclusivity rule forbids.
  @inlinable
  func checkNotInsideUpdater(_ operation: @autoclosure () -> String) {
    if _runtime._isInsideUpdater {
      _updaterReachedStore(operation())
    }
  }

  /// Reports an updater that reached its store.
  ///
  /// Trapping is deliberate: the only way here is an
  /// updater that captured the store and forced its way onto the main actor, a programming error
  /// that would otherwise be an overlapping access to the state (undefined behaviour); it is
  /// diagnosed in every build, like Swift's own exclusivity violations.
  @usableFromInline
  func _updaterReachedStore(_ operation: String) -> Never {
    fatalError(
      "StateStore: \(operation) while an updater of \(S.self) was running. An updater must not "
        + "reach the store: it gets the state inout, and nothing else may read or subscribe to "
        + "the state until it returns (see \"Purity\" in "
        + "Sources/StateStore/StateStore.docc/StoreContract.md). Move the work into a side "
        + "effect or a listener.")
  }

  var interceptorContext: InterceptorContext<S> {
    InterceptorContext(
      getState: { [weak self] in self?.state },
      enqueue: { [weak self] dispatchable in self?.dispatch(any: dispatchable) },
      retain: { [weak self] resource in self?.interceptorResources.append(resource) })
  }

  /// Removes the entries whose tokens were cancelled, and groups left without subscribers.
  ///
  /// - Complexity: O(listeners + subscriptions).
  @usableFromInline
  func _sweepCancelledEntries() {
    _cancellationLog._count.store(0, ordering: .relaxed)
    // The lists as they were keep every removed entry and group alive until the writes below
    // are over, so that a deinitializer (a selector's captures, say) runs with no access to
    // these lists open: it may subscribe, which appends to them. See the proof at
    // `ownScopeNode`.
    let before = (_listeners, _selectionOrder, _elementOrder)
    defer { withExtendedLifetime(before) {} }
    _listeners.removeAll { !$0._isActive }
    var emptiedSelection = false
    for group in _selectionOrder where group.removeCancelled() { emptiedSelection = true }
    if emptiedSelection {
      // The groups do not keep their keys (see `_SelectionGroupBase`). Released after the
      // writes, from `before`.
      _selectionGroups = _selectionGroups.filter { !$0.value.isEmpty }
    }
    _selectionOrder.removeAll { $0.isEmpty }
    for group in _elementOrder where group.removeCancelled() {
      _elementGroups[group._anyKeyPath] = nil
      if _recentElementGroup === group { _recentElementGroup = nil }
    }
    _elementOrder.removeAll { $0.isEmpty }
    _refreshHasObservers()
  }

  /// Recomputes whether anything observes this store, after its observers changed: at the
  /// root, the engine's flags too (it sweeps its own update observers then); in a scope, its
  /// registration with its root.
  @usableFromInline
  func _refreshHasObservers() {
    _hasObservers = !_listeners.isEmpty || !_selectionOrder.isEmpty || !_elementOrder.isEmpty
    _runtime._observersChanged(store: self)
  }
}

/// A dispatch waiting for its turn.
@usableFromInline
struct _QueuedDispatch<S: State, D: Sendable> {
  @usableFromInline let _dispatchable: any Dispatchable
  @usableFromInline let _cause: DispatchCause?
  /// The `dispatch` call that sent it, kept only when something records it.
  @usableFromInline let _site: DispatchSite?
  /// For updaters dispatched with their static type: applies them without a dynamic cast.
  @usableFromInline let _apply: (@MainActor (_RootEngine<S, D>, Store<S, D>) -> Void)?
  @usableFromInline let _perform: (@MainActor (any Dispatchable) -> Bool)?
  /// For a scope's dispatch made while the root was inside an updater: whether it still goes
  /// ahead, asked when its turn comes (see `Store._forwardThroughScope`).
  @usableFromInline let _admission: _ScopeAdmission?

  init(
    _ dispatchable: any Dispatchable, cause: DispatchCause?, site: DispatchSite? = nil,
    perform: (@MainActor (any Dispatchable) -> Bool)? = nil, admission: _ScopeAdmission? = nil
  ) {
    self._dispatchable = dispatchable
    self._cause = cause
    self._site = site
    self._apply = nil
    self._perform = perform
    self._admission = admission
  }

  @inlinable
  init<U: StateUpdater>(updater: U, cause: DispatchCause?, site: DispatchSite?)
  where U.StateType == S {
    self._dispatchable = updater
    self._cause = cause
    self._site = site
    self._apply = { engine, store in
      engine.apply(updater, cause: cause, site: site, store: store)
    }
    self._perform = nil
    self._admission = nil
  }
}
