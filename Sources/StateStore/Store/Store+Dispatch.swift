import Synchronization

// MARK: - The façade's ways in

extension Store {
  /// The store's runtime, for what both roles answer, each its own way (see `_StoreRuntime`).
  @inlinable
  var _runtime: any _StoreRuntime<S> {
    if let _engine { return _engine }
    return _scopeLink.unsafelyUnwrapped
  }

  /// Whether this store is a root: its runtime is the root's engine.
  @inlinable
  var _isRoot: Bool { _engine != nil }

  /// The root's engine, read with no reference counted (see `_engine`).
  ///
  /// - Precondition: ``_isRoot``.
  @inlinable
  var _rootEngine: _RootEngine<S, Dependencies> { _engine.unsafelyUnwrapped }

  /// The scope's link, read with no reference counted.
  ///
  /// - Precondition: the store is a scope (not ``_isRoot``).
  @inlinable
  var _linkOfScope: _ScopeLink<S> { _scopeLink.unsafelyUnwrapped }
}

extension Store {
  /// Applies `updater` to the state and notifies listeners and subscribers.
  ///
  /// Called while the store is notifying, the updater is queued and applied right after the
  /// current round; otherwise it is applied before this method returns.
  ///
  /// The call's file and line (`fileID`, `line`) reach update observers and the action log as
  /// the dispatch's ``DispatchSite``; leave them to their defaults. A store that nothing
  /// records never builds the site.
  ///
  /// - Complexity: The updater's own cost, plus O(listeners + view-model types + changed
  ///   elements' subscribers) when anything observes the store.
  @inlinable @inline(__always)
  public func dispatch<U: StateUpdater>(
    _ updater: U, fileID: String = #fileID, line: Int = #line
  ) where U.StateType == S {
    // Always inlined: the fast path is a few instructions, and a call around it costs as much
    // as a whole dispatch to a store that nothing observes (W0 in store-bench).
    guard _isRoot && _rootEngine._appliesAtOnce else {
      dispatchLater(updater, fileID: fileID, line: line)
      return
    }
    // The engine is used, not bound: a binding retains and releases (see `_runtime`).
    _rootEngine._isDispatching = true
    // Decided once, when observers come and go (`_AfterChange`). A store that nothing
    // observes, or its journal alone, runs the updater here with no call at all (`apply` is
    // not inlined into every dispatch), in one copy of the change, so that this method stays
    // small enough to be inlined where it is called; the journal is told after it, out of line.
    let path = _rootEngine._afterChange.path
    if path == .updaterAlone || path == .journalAlone {
      _rootEngine.runChange({ updater.updateState(&$0) })
      if path == .journalAlone { _rootEngine._journalApplied(updater) }
    } else {
      // The cause is read inside, once, and only when something records it.
      _rootEngine._applyOutOfLine(updater, fileID: fileID, line: line, store: self)
    }
    _rootEngine.endDispatch(store: self)
  }

  /// Dispatches a dispatchable whose type is known only at run time.
  ///
  /// An updater of this store's state is applied; an ``ExecutableDispatchable`` such as a side
  /// effect is started without being awaited. A dispatchable that the store cannot run is
  /// reported to ``onUnhandledError``. Prefer the typed `dispatch` overloads: they are checked at
  /// compile time (a navigation request, for example, compiles only when the store's
  /// dependencies provide a navigator). The argument label keeps this method from silently
  /// catching calls that no typed overload accepts.
  public func dispatch(
    any dispatchable: any Dispatchable, fileID: String = #fileID, line: Int = #line
  ) {
    _runtime._dispatch(
      any: dispatchable, site: DispatchSite(fileID: fileID, line: line), store: self)
  }

  /// Whether a dispatchable sent now would reach the end of the chain at once, unchanged: the
  /// store is a root with no interceptor, and is not dispatching (so its queue is empty).
  @usableFromInline package var _reachesEndAtOnce: Bool { _runtime._reachesEndAtOnce }

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
    _runtime._intercept(dispatchable, admission: admission, then: perform, store: self)
  }

  /// The slow path of `dispatch`: a scope forwards to its root, a busy or intercepted root
  /// queues.
  ///
  /// Kept out of line so that the root's fast path stays a few instructions where it is inlined
  /// (inlining the scope's path into every dispatch made W0 three times slower); still
  /// `@inlinable`, so that it is specialised for the application's types.
  @inlinable @inline(never)
  func dispatchLater<U: StateUpdater>(_ updater: U, fileID: String, line: Int)
  where U.StateType == S {
    // The fields are used, not bound: a binding retains and releases (see `_runtime`).
    if _isRoot {
      let records = _rootEngine.observesUpdaters
      _rootEngine._enqueue(
        _QueuedDispatch(
          updater: updater, cause: _rootEngine.observedCause(),
          site: records ? DispatchSite(fileID: fileID, line: line) : nil),
        store: self)
    } else {
      dispatchThroughScope(
        updater, link: _linkOfScope, fileID: fileID, line: line)
    }
  }

  /// Runs `callback`, a call the store makes into user code outside a dispatch (a subscriber's
  /// first value), with the root marked busy: a dispatch it makes is queued and applied after
  /// it returns, as every re-entrant dispatch is.
  @inlinable
  func runAsStoreCallback(_ callback: () -> Void) {
    // The root's way specialised here: every subscriber's first value takes it.
    if _isRoot {
      _rootEngine.runAsCallback(callback, store: self)
    } else {
      _runtime._runAsCallback(callback, store: self)
    }
  }
}

/// A scope's way to its root: what a scoped store does with what it is given.
extension Store {
  /// Applies `updater` to the slice at once when the root is idle, or queues it on the root.
  ///
  /// A slice stored inline in the root's state is changed at its address there, in one call to
  /// the root; any other goes down the links' chain of `withSlice` closures.
  ///
  /// Always inlined into its one caller, `dispatchLater`, itself out of line: one call less
  /// on every scoped dispatch.
  @inlinable @inline(__always)
  func dispatchThroughScope<U: StateUpdater>(
    _ updater: U, link: _ScopeLink<S>, fileID: String, line: Int
  )
  where U.StateType == S {
    let outcome: _ScopeDispatchOutcome
    if case .bytes(let range) = link._origin {
      // The slice's offset in the root (`offsetInRoot`), read here: no call on the way.
      let offset = range.lowerBound
      if link._rootHandle.applyUnobserved(updater, atOffset: offset) { return }
      // `offsetInRoot` is set only where every step from the root is a stored property with
      // an offset, and `MemoryLayout.offset(of:)` documents that an access through the offset
      // pointer is the same as one through the key path: the slice is a `S` at that address,
      // in memory bound to its type (as `project(_:offset:_:)` relies on).
      outcome = link._withRootBytes(offset, link._origin) { bytes in
        updater.updateState(&bytes.assumingMemoryBound(to: S.self).pointee)
      }
    } else {
      outcome = link._withSlice(link._origin) { updater.updateState(&$0) }
    }
    if case .applied = outcome { return }
    _forwardThroughScope(
      updater, outcome: outcome, link: link, site: DispatchSite(fileID: fileID, line: line))
  }

  /// Queues `updater` on the root when `outcome` says it is busy; reports it when dropped.
  ///
  /// While the root is inside an updater's access to its state (the dispatch comes from an
  /// id's `==`, a `hash(into:)` or a `deinit` that the updater runs), nothing may read that
  /// state (see the top of `RootEngine.swift`): the updater is queued unchecked, with an
  /// admission that looks the scope's element up, and reports the dispatch as dropped if it is
  /// gone, when its turn comes, after the access has ended.
  @usableFromInline
  func _forwardThroughScope(
    _ updater: any StateUpdater<S>, outcome: _ScopeDispatchOutcome, link: _ScopeLink<S>,
    site: DispatchSite?
  ) {
    var outcome = outcome
    if case .busy = outcome {
      let admission =
        link._rootHandle._rootIsApplyingUpdater ? _admission(of: updater, link: link) : nil
      outcome = link._forward(updater, admission, site)
    }
    if case .dropped(let reason) = outcome { reportDropped(updater, reason: reason, link: link) }
  }

  /// What a dispatch through this scope made while the root is inside an updater runs when its
  /// turn comes: whether the scope's slice is still there, reporting the dispatch as dropped
  /// otherwise.
  ///
  /// Holds this scope until then, so that the report goes to its ``onUnhandledError`` as it
  /// would have at once.
  func _admission(of dispatchable: any Dispatchable, link: _ScopeLink<S>) -> _ScopeAdmission {
    { [self] in
      guard let reason = link._dropReason() else { return true }
      reportDropped(dispatchable, reason: reason, link: link)
      return false
    }
  }

  func dispatchThroughScope(
    any dispatchable: any Dispatchable, link: _ScopeLink<S>, site: DispatchSite?
  ) {
    if let updater = dispatchable as? any StateUpdater<S> {
      _forwardThroughScope(updater, outcome: .busy, link: link, site: site)
    } else {
      interceptThroughScope(dispatchable, link: link) { _ in false }
    }
  }

  /// Sends `dispatchable` through the root's interceptors; what reaches the end runs on this
  /// scope, so an effect gets the feature's context and dependencies.
  func interceptThroughScope(
    _ dispatchable: any Dispatchable, link: _ScopeLink<S>,
    then perform: @escaping @MainActor (any Dispatchable) -> Bool
  ) {
    // Inside the root's updater, checked in the queued turn (see `_forwardThroughScope`).
    var admission: _ScopeAdmission?
    if link._rootHandle._rootIsApplyingUpdater {
      admission = _admission(of: dispatchable, link: link)
    } else if let reason = link._dropReason() {
      reportDropped(dispatchable, reason: reason, link: link)
      return
    }
    guard let root = link.root else {
      reportDropped(dispatchable, reason: .rootReleased, link: link)
      return
    }
    root.interceptFromScope(dispatchable, admission: admission) { [weak self] final in
      if perform(final) { return true }
      guard let self else { return false }
      if let updater = final as? any StateUpdater<S> {
        self._forwardThroughScope(updater, outcome: .busy, link: link, site: nil)
        return true
      }
      if let executable = final as? any ExecutableDispatchable {
        executable._start(in: self)
        return true
      }
      return false
    }
  }

  func reportDropped(
    _ dispatchable: any Dispatchable, reason: ScopeDispatchDroppedError.Reason,
    link: _ScopeLink<S>
  ) {
    onUnhandledError(
      ScopeDispatchDroppedError(
        scope: link._path, dispatchableType: String(reflecting: type(of: dispatchable)),
        reason: reason),
      dispatchable)
  }
}
