import Foundation
import Synchronization

/// The single owner of an application's state, applying dispatched updaters strictly in order.
///
/// The store lives on the main actor. Code elsewhere reaches it with `await`, so the compiler, not
/// a run-time check, proves that the state is never touched from two threads at once.
///
/// ```swift
/// let store = Store<Counter, Void>(dependencies: ())
/// let token = store.addListener { old, new in print(old.value, "→", new.value) }
/// store.dispatch(Increment())
/// ```
///
/// Ordering contract:
/// - Updaters apply one at a time, in dispatch order.
/// - A dispatch made while the store is applying or notifying (from a listener, a subscriber or an
///   interceptor) is queued and applied after every listener and subscriber has seen the current
///   change: never nested, never lost, never reordered.
/// - While no listener asks for `(old, new)`, an updater mutates the state in place.
@MainActor
public final class Store<S: State, Dependencies: Sendable> {
  // The dispatch path is `@inlinable` so that it is specialised for the application's state
  // and updaters where it is called: generic code left unspecialised looks up type metadata on
  // every call and costs hundreds of nanoseconds per dispatch (see Docs/Performance.md). So the
  // properties that path reads are `@usableFromInline`.

  /// The root's runtime, or `nil` for a scope.
  ///
  /// Its state, dispatch loop and queue: see `Store/RootEngine.swift`. Owned by this store
  /// alone and never handed out.
  ///
  /// The dispatch path reads it as `_engine.unsafelyUnwrapped` after checking it, rather than
  /// binding it with `if let`: a binding retains and releases the engine, two atomic operations,
  /// as much as a whole dispatch of W0, while a use of the constant field of a store the caller
  /// holds needs neither.
  @usableFromInline let _engine: _RootEngine<S, Dependencies>?
  /// The root this store is a window on; `nil` for a root store.
  @usableFromInline let _scopeLink: _ScopeLink<S>?
  /// The number of refreshes of a scope's slice that its subscribers have been told about;
  /// unused at the root, whose engine counts its updates (see `subscriptionVersion`).
  // A plain value, read by copy and written by assignment, on the main actor.
  #if !STATESTORE_CHECKED_EXCLUSIVITY
    @exclusivity(unchecked)
  #endif
  @usableFromInline var _version: UInt64 = 0
  /// What this store's selection groups cache their values against: at the root, the number
  /// of updates applied; in a scope, the number of refreshes of its slice.
  @inlinable
  var _subscriptionVersion: UInt64 { _engine?._version ?? _version }
  /// Whether this store's own lists have any observer (at the root, the engine adds its update
  /// observers and scopes to decide whether anything must run after an update).
  // A plain value, read by copy and written by assignment, on the main actor.
  #if !STATESTORE_CHECKED_EXCLUSIVITY
    @exclusivity(unchecked)
  #endif
  @usableFromInline var _hasObservers = false
  /// Whether `lastSlice` was dropped before an in-place scoped dispatch (see
  /// `forgetSlices(changedBy:)`) and not yet taken again.
  // Unchecked: a plain value, read by copy and written by assignment on the main actor, never
  // passed `inout`, so no access to it spans any call.
  #if !STATESTORE_CHECKED_EXCLUSIVITY
    @exclusivity(unchecked)
  #endif
  @usableFromInline var _hasForgottenSlice = false
  /// Whether ``_capturedSlice`` holds a slice, so that a refresh reads it only then.
  // Unchecked: a plain value, read by copy and written by assignment on the main actor, never
  // passed `inout`, so no access to it spans any call.
  #if !STATESTORE_CHECKED_EXCLUSIVITY
    @exclusivity(unchecked)
  #endif
  @usableFromInline var _holdsCapturedSlice = false
  /// Whether ``_elementOrder`` is not empty: kept by its observer, so that a refresh of a scope
  /// with none reads this flag beside the others rather than another cache line of the store.
  // Unchecked: a plain value; see `holdsCapturedSlice`.
  #if !STATESTORE_CHECKED_EXCLUSIVITY
    @exclusivity(unchecked)
  #endif
  @usableFromInline var _hasElementGroups = false

  // The observer lists below are read on every dispatch that has observers. They skip the
  // run-time exclusivity check (a begin and an end access per read, five reads a dispatch, as
  // much as W0's whole floor) because no two accesses to one of them can overlap: each is read
  // by copying it (a `for` loop iterates a copy, `isEmpty` reads once) and written only by short
  // appends, removals and assignments that call no code outside the store. A removal's
  // predicate asks our own objects (`isActive`, `isEmpty`), and `sweepCancelledEntries()` keeps
  // the lists as they were until after its writes, so the entries and groups it removes (a
  // group holds the application's values: a cached view model, the elements of its rows) are
  // released, and their deinitializers run, with no access open. So no access is open while a
  // listener, a subscriber or any other user code runs, even one that subscribes or cancels
  // from inside a callback. All of it is main-actor state. The root's engine keeps its own
  // lists (update observers, scopes) by the same rule.
  //
  // Declared here, beside the flags, so that a scope's refresh (which reads the three lists
  // below, the cancellation log, the captured slice and the fields above) touches as few of
  // the store's cache lines as it can: with a thousand element scopes, each refresh finds its
  // store out of the cache.
  //
  // Swift lays a class's stored properties out in declaration order: `_engine` to
  // `_soleSelection` fill the store's first cache line, which is all a refresh of an element
  // scope with one view-model group reads of its store.
  // An observer list: unchecked, as proved at the head of these lists, in this file.
  #if !STATESTORE_CHECKED_EXCLUSIVITY
    @exclusivity(unchecked)
  #endif
  @usableFromInline var _listeners: [_ListenerEntry<S>] = []
  /// The one selection group while there is exactly one (most scopes: a screen's view model),
  /// kept by ``_selectionOrder``'s observer, so that a refresh reaches it without fetching the
  /// list's buffer.
  // Unchecked: an observer list's shadow, under the proof at the head of these lists. It is
  // written only by `selectionOrder`'s observer, after each write of the list; the group it
  // replaces is then still in the list, or in the copy the sweep keeps until after its writes
  // (`before`), so no write releases a group's last reference inside the access.
  #if !STATESTORE_CHECKED_EXCLUSIVITY
    @exclusivity(unchecked)
  #endif
  @usableFromInline var _soleSelection: _SelectionGroupBase<S>?
  // An observer list: unchecked, as proved at the head of these lists, in this file.
  #if !STATESTORE_CHECKED_EXCLUSIVITY
    @exclusivity(unchecked)
  #endif
  @usableFromInline var _selectionOrder: [_SelectionGroupBase<S>] = [] {
    didSet { _soleSelection = _selectionOrder.count == 1 ? _selectionOrder[0] : nil }
  }
  // An observer list: unchecked, as proved at the head of these lists, in this file.
  #if !STATESTORE_CHECKED_EXCLUSIVITY
    @exclusivity(unchecked)
  #endif
  @usableFromInline var _elementOrder: [_ElementGroupBase<S>] = [] {
    didSet { _hasElementGroups = !_elementOrder.isEmpty }
  }
  /// `==` on the slice, for a scope whose slice is `Equatable`; `nil` otherwise and at the root.
  // Unchecked: read by copy on every refresh of the scope, written once, where the scope is
  // made (replacing `nil`, so nothing is released), on the main actor.
  #if !STATESTORE_CHECKED_EXCLUSIVITY
    @exclusivity(unchecked)
  #endif
  @usableFromInline var _sliceEquality: (@MainActor (S, S) -> Bool)?
  /// Tokens cancelled since the last sweep; tokens may be cancelled on any thread.
  @usableFromInline nonisolated let _cancellationLog: _CancellationLog
  /// A scope's slice from before the update being applied, for its `(old, new)` listeners.
  // Unchecked: read by copy, and written only by `captureSlice()` (a swap: the slice it
  // replaces is released from a local after the write) and by `refreshAsScope(origin:)`, which
  // copies it out before clearing it, so that no write releases a slice's last reference, and
  // no deinitializer of the app's runs, inside the access. Read on every refresh of a scope.
  #if !STATESTORE_CHECKED_EXCLUSIVITY
    @exclusivity(unchecked)
  #endif
  @usableFromInline var _capturedSlice: S?
  /// A scope's registration with its root, while the scope has observers.
  ///
  /// Not a weak reference: that would give the node a side table, and every retain and release
  /// of the node, by its holder on every update, would take the runtime's slow path.
  // Unchecked lifetime, proof that it never refers to a node whose deinitializer has run:
  // - it is written only by `scopeObserversChanged()`, to a node it has just made (alive), by
  //   `giveUpScopeNode()`, to nil, and by the node's deinitializer (`ScopeNode.deinit`), which
  //   sets it to nil when it refers to that node, as the deinitializer's first statement;
  // - that deinitializer is isolated to the main actor, as is every access to this field, so
  //   no read runs between it and the node's memory being freed; a node whose last reference
  //   goes on another thread waits for the main actor with its memory intact, and main-actor
  //   code that reaches it meanwhile finds a whole node, which it uses only for the length of
  //   a call (it stores it nowhere), as `RootHandle` argues for the root;
  // - a store that answers its holder that it has no observers left gives its node up first
  //   (`giveUpScopeNode()`), so a subscriber added from any callback before the holder drops
  //   the node registers a new node rather than joining one about to be dropped.
  // Tests: `ScopeNodeLifetimeTests`.
  unowned(unsafe) var ownScopeNode: _ScopeNode?
  /// A scope's slice as its view-model and key-path subscribers were last evaluated on, kept
  /// while it has some and its slice is `Equatable`, so that an update that leaves the slice
  /// `==` evaluates none of them.
  @usableFromInline var _lastSlice: S? {
    didSet { ownScopeNode?.keptSliceReplaced(isHeld: _lastSlice != nil) }
  }
  /// Makes a scope's node; set where the scope is made, so that its notification runs as code
  /// specialised for the application's types.
  @usableFromInline var _makeScopeNode: (@MainActor (Store) -> _ScopeNode)?
  /// The scopes made from this store, so that one slice and dependencies give one scope.
  ///
  /// Made with the first scope: a table and its count of writes, behind one reference, so
  /// that a store that makes no scope (a scope, mostly) carries one word for it.
  @usableFromInline var _scopeCache: _ScopeCache?
  /// What interceptors registered for this store alone; released with the store.
  private var interceptorResources: [AnyObject] = []
  @usableFromInline var _selectionGroups: [AnyHashable: _SelectionGroupBase<S>] = [:]
  @usableFromInline var _elementGroups: [AnyKeyPath: _ElementGroupBase<S>] = [:]
  /// The element group a subscriber joined last, checked first by the next subscriber.
  ///
  /// Not on the dispatch path. Held strongly and forgotten by the sweep that drops the group: a
  /// weak reference would give the group a side table, and every retain and release of the
  /// group on the dispatch path would then take the runtime's slow path.
  // Read on every row subscription; skips the run-time exclusivity check (as much as the rest
  // of the group look-up) because no access to it can overlap another: it is read by copy and
  // written by assignment, and an assignment never releases the last reference to a group (the
  // group it replaces is still in `elementOrder`, and the sweep that clears it keeps the old
  // `elementOrder` alive until after the write), so no deinitializer runs inside an access.
  #if !STATESTORE_CHECKED_EXCLUSIVITY
    @exclusivity(unchecked)
  #endif
  @usableFromInline var _recentElementGroup: _ElementGroupBase<S>?

  /// The dependencies every side effect of this store receives.
  public let dependencies: Dependencies

  /// Where errors go that no caller awaits, such as a fire-and-forget side effect's.
  ///
  /// The default writes a line to standard error, so no error is ever lost silently.
  public var onUnhandledError:
    @MainActor (_ error: any Error, _ dispatchable: any Dispatchable) -> Void =
      Store.reportWithoutRoot

  /// The default error report: a line on standard error.
  ///
  /// A report that cannot be written (standard error closed, or on a full disk) is dropped:
  /// `FileHandle.write(_:)` would trap on it.
  static func reportWithoutRoot(_ error: any Error, _ dispatchable: any Dispatchable) {
    try? FileHandle.standardError.write(
      contentsOf: Data(
        "StateStore: unhandled error from \(type(of: dispatchable)): \(error)\n".utf8))
  }

  /// Storage for modules that extend the store (side-effect cancellation, navigation).
  ///
  /// Keyed by the extending type; not meant for application code.
  @usableFromInline package var _extensionStorage: [ObjectIdentifier: AnyObject] = [:]

  /// Creates a store.
  ///
  /// - Parameters:
  ///   - initialState: The state to start from.
  ///   - dependencies: What side effects receive: clients, clocks, file systems. Tests pass fakes.
  ///   - interceptors: Steps every dispatchable passes through, in this order. Their `onStart`
  ///     hooks run before this initializer returns.
  public convenience init(
    initialState: S = S(), dependencies: Dependencies, interceptors: [StoreInterceptor<S>] = []
  ) {
    self.init(
      initialState: initialState, dependencies: dependencies, interceptors: interceptors,
      journal: nil)
  }

  /// Creates a root store that hands every updater it applies, with its cause, to `journal`,
  /// right after the state changed and before the update observers; with a `tape`, the store
  /// appends most of them to the tape itself, as the journal allows (see ``_JournalTape``).
  ///
  /// StatePersistence's plumbing: a `JournaledStore` creates its store so, and stops
  /// journaling by ignoring what `journal` is told. Unlike ``observeUpdates(_:)``, the journal
  /// costs no ``AppliedUpdate`` and no observer list, and the cause is read only for it. A
  /// scope's updaters reach it as ``ScopedUpdater``s.
  @usableFromInline package init(
    initialState: S, dependencies: Dependencies, interceptors: [StoreInterceptor<S>],
    journal: _Journal<S>?, tape: _JournalTape<S>? = nil
  ) {
    self._engine = _RootEngine(
      initialState: initialState, interceptors: interceptors, journal: journal, tape: tape)
    self.dependencies = dependencies
    self._scopeLink = nil
    self._cancellationLog = _CancellationLog()
    let starts = interceptors.compactMap(\.onStart)
    guard let _engine, !starts.isEmpty else { return }
    _engine._isDispatching = true
    for start in starts { start(interceptorContext) }
    _engine.endDispatch(store: self)
  }

  /// Creates a scope's store; see `init(scope:dependencies:)`.
  init(link: _ScopeLink<S>, dependencies: Dependencies) {
    self._engine = nil
    self.dependencies = dependencies
    self._scopeLink = link
    self._cancellationLog = _CancellationLog(relayingTo: link._relay)
  }

  // Isolated, so that it clears the scopes' reference to the root on the main actor, before
  // anything of the root is destroyed (see `RootHandle`); released on another thread, a store
  // is deinitialised on the main actor.
  isolated deinit {
    if let _engine, let root = _engine._rootReference {
      root._isAlive = false
      // Released in the middle of a scope's call that uses the engine without a reference
      // (an in-place dispatch, and what it runs after): the engine must outlive this store
      // until that call returns (see `RootHandle.survivingEngine`).
      if root._isLendingEngine { root._survivingEngine = _engine }
    }
    // Their tokens hold the entries: release the observers, and what they captured, now.
    for entry in _engine?._updateObservers ?? [] { entry._clear() }
    for entry in _listeners { entry._clear() }
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
    if let _engine { return _engine._currentState }
    return _scopeLink?._read()
  }

  /// Stops the process: `operation` needs the state of a scope whose slice is gone.
  ///
  /// Trapping is deliberate, and documented on ``state``: there is no state to give.
  @usableFromInline
  func _sliceIsGone(_ operation: String) -> Never {
    let why: String
    switch _scopeLink?._dropReason() {
    case .elementRemoved(let id)?: why = "its element (id \(id)) was removed"
    default: why = "its root store has been released"
    }
    let path = _scopeLink.map { "\"\($0._path)\" " } ?? ""
    preconditionFailure(
      "StateStore: \(operation) on the scope \(path)of \(S.self), whose slice is gone: \(why). "
        + "A scope can outlive its slice; read stateIfAvailable there, which is nil once the "
        + "slice is gone.")
  }

  /// Stops the process if an updater is running: `operation` would read the state while the
  /// updater holds it `inout`, which Swift's exclusivity rule forbids.
  @inlinable
  func checkNotInsideUpdater(_ operation: @autoclosure () -> String) {
    if _engine?._isApplyingUpdater == true || _scopeLink?.rootIsApplyingUpdater() == true {
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
    let before = (_listeners, _engine?._updateObservers, _selectionOrder, _elementOrder)
    defer { withExtendedLifetime(before) {} }
    _listeners.removeAll { !$0._isActive }
    _engine?._updateObservers.removeAll { !$0._isActive }
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
  /// root, the engine's flags too; in a scope, its registration with its root.
  @usableFromInline
  func _refreshHasObservers() {
    _hasObservers = !_listeners.isEmpty || !_selectionOrder.isEmpty || !_elementOrder.isEmpty
    if let _engine {
      _engine._refreshFlags(store: self)
    } else {
      scopeObserversChanged()
    }
  }
}

/// A dispatch waiting for its turn.
@usableFromInline
struct _QueuedDispatch<S: State, D: Sendable> {
  @usableFromInline let _dispatchable: any Dispatchable
  @usableFromInline let _cause: DispatchCause?
  /// For updaters dispatched with their static type: applies them without a dynamic cast.
  @usableFromInline let _apply: (@MainActor (_RootEngine<S, D>, Store<S, D>) -> Void)?
  @usableFromInline let _perform: (@MainActor (any Dispatchable) -> Bool)?
  /// For a scope's dispatch made while the root was inside an updater: whether it still goes
  /// ahead, asked when its turn comes (see `Store._forwardThroughScope`).
  @usableFromInline let _admission: _ScopeAdmission?

  init(
    _ dispatchable: any Dispatchable, cause: DispatchCause?,
    perform: (@MainActor (any Dispatchable) -> Bool)? = nil, admission: _ScopeAdmission? = nil
  ) {
    self._dispatchable = dispatchable
    self._cause = cause
    self._apply = nil
    self._perform = perform
    self._admission = admission
  }

  @inlinable
  init<U: StateUpdater>(updater: U, cause: DispatchCause?) where U.StateType == S {
    self._dispatchable = updater
    self._cause = cause
    self._apply = { engine, store in engine.apply(updater, cause: cause, store: store) }
    self._perform = nil
    self._admission = nil
  }
}
