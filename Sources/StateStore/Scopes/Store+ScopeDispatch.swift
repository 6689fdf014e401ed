import Synchronization

/// The scope's side: how a scoped store forwards what it is given to its root, and how the root
/// notifies it.
extension Store {
  /// Creates a scope: a store with no state of its own, reading and dispatching through `link`.
  @usableFromInline
  convenience init(scope link: _ScopeLink<S>, dependencies: Dependencies) {
    // The placeholder is never read: `liveState` reads through the link.
    self.init(link: link, placeholder: S(), dependencies: dependencies)
    // Element scopes and the scopes under them are notified only for their changed element,
    // through the array's journal, so they keep no slice to compare.
    if !link._isUnderElement { _sliceEquality = Self.makeSliceEquality() }
    // The link is captured strongly: it refers to neither this store nor anything that holds
    // it, so there is no cycle, and a weak reference would give the link a side table that
    // makes every retain and release of it on the dispatch path slow.
    onUnhandledError = { [link] error, dispatchable in
      if let root = link.root {
        root.reportFromScope(error, dispatchable)
      } else {
        Self.reportWithoutRoot(error, dispatchable)
      }
    }
  }

  /// Applies `updater` to the slice at once when the root is idle, or queues it on the root.
  @inlinable
  func dispatchThroughScope<U: StateUpdater>(_ updater: U, link: _ScopeLink<S>)
  where U.StateType == S {
    let outcome = link._withSlice(link._origin) { updater.updateState(&$0) }
    if case .applied = outcome { return }
    _forwardThroughScope(updater, outcome: outcome, link: link)
  }

  @usableFromInline
  func _forwardThroughScope(
    _ updater: any StateUpdater<S>, outcome: _ScopeDispatchOutcome, link: _ScopeLink<S>
  ) {
    var outcome = outcome
    if case .busy = outcome { outcome = link._forward(updater) }
    if case .dropped(let reason) = outcome { reportDropped(updater, reason: reason, link: link) }
  }

  func dispatchThroughScope(any dispatchable: any Dispatchable, link: _ScopeLink<S>) {
    if let updater = dispatchable as? any StateUpdater<S> {
      _forwardThroughScope(updater, outcome: .busy, link: link)
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
    if let reason = link._dropReason() {
      reportDropped(dispatchable, reason: reason, link: link)
      return
    }
    guard let root = link.root else {
      reportDropped(dispatchable, reason: .rootReleased, link: link)
      return
    }
    root.interceptFromScope(dispatchable) { [weak self] final in
      if perform(final) { return true }
      guard let self else { return false }
      if let updater = final as? any StateUpdater<S> {
        self._forwardThroughScope(updater, outcome: .busy, link: link)
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

  /// Observes the updaters dispatched through this scope, as the root applies them.
  func observeScopedUpdates(
    link: _ScopeLink<S>, _ observer: @escaping @MainActor (AppliedUpdate<S>) -> Void
  ) -> Subscription {
    guard let root = link.root else { return Subscription {} }
    let identity = link._identity
    return root.observeUpdatesFromScope { updater, cause, sequence in
      var current: any Dispatchable = updater
      while let scoped = current as? any _ScopedUpdaterPlumbing {
        if scoped.scopeIdentity === identity, let inner = scoped.wrapped as? any StateUpdater<S> {
          observer(AppliedUpdate(updater: inner, cause: cause, sequence: sequence))
          return
        }
        current = scoped.wrapped
      }
    }
  }

  /// Registers this scope with its root once it has observers, and keeps the root's view of
  /// whether it listens up to date.
  func scopeObserversChanged() {
    guard let link = _scopeLink, link.root != nil else { return }
    if _selectionOrder.isEmpty {
      _lastSlice = nil
      _hasForgottenSlice = false
    } else if _lastSlice == nil, !_hasForgottenSlice, _sliceEquality != nil {
      // The first view-model or key-path subscriber, evaluated on the slice as it is now (not
      // after a drop: the others were evaluated on the slice before the update in progress).
      _lastSlice = link._read()
    }
    if _hasObservers, ownScopeNode == nil {
      let node =
        _makeScopeNode?(self)
        ?? _ScopeNode(
          capture: { [self] in self._capturedSlice = link._read() },
          refresh: { [self] _origin in self.refreshAsScope(origin: _origin) },
          sweep: { [self] in self.sweepAsScope() })
      ownScopeNode = node
      node._holdsSlice = _lastSlice != nil
      node._keepsOldSlice = !_listeners.isEmpty
      node._keepsLastSlice = _lastSlice != nil || _hasForgottenSlice
      link._register(node)
      link._observersChanged()
      return
    }
    ownScopeNode?._keepsOldSlice = !_listeners.isEmpty
    ownScopeNode?._keepsLastSlice = _lastSlice != nil || _hasForgottenSlice
    link._observersChanged()
  }

  /// Sweeps this scope's cancelled subscriptions; returns whether it still has observers.
  @inlinable
  func sweepAsScope() -> Bool {
    if _cancellationLog._count.load(ordering: .relaxed) != 0 { _sweepCancelledEntries() }
    return _hasObservers
  }

  /// Notifies this scope's observers after an update of the root; returns false once it has
  /// none left.
  ///
  /// View-model and key-path subscribers are evaluated only when the slice may have changed:
  /// the update's bytes overlap the slice's, and, for an `Equatable` slice, the slice is not
  /// `==` to the one they were last evaluated on (compared once per update, not per subscriber).
  @inlinable
  func refreshAsScope(origin: _SliceOrigin) -> Bool {
    if _cancellationLog._count.load(ordering: .relaxed) != 0 { _sweepCancelledEntries() }
    let old = _capturedSlice
    _capturedSlice = nil
    guard _hasObservers, let link = _scopeLink else { return false }
    guard origin.mayChange(link._origin), let slice = link._read() else { return true }
    if let old, !_listeners.isEmpty, !Self._isSame(old, slice) {
      for entry in _listeners { entry.callback?(old, slice) }
    }
    if !_selectionOrder.isEmpty, !isUnchangedSinceEvaluated(slice) {
      _version &+= 1
      for group in _selectionOrder { group.refresh(slice, version: _version) }
    }
    for group in _elementOrder { group.refresh(slice) }
    return true
  }

  /// Whether `slice` is `==` to the slice the view-model and key-path subscribers were last
  /// evaluated on; remembers it for the next update.
  ///
  /// `==` is the app's code. It runs on copies, with no access to the store's lists open, while
  /// the root is notifying: a dispatch it makes is queued, a subscription it makes joins the
  /// lists for the next update.
  @inlinable
  func isUnchangedSinceEvaluated(_ slice: S) -> Bool {
    _hasForgottenSlice = false
    guard let _sliceEquality else { return false }
    let last = _lastSlice
    _lastSlice = slice
    guard let last else { return false }
    return _sliceEquality(last, slice)
  }

  /// Drops the slice kept for `==` before a scoped dispatch that may change it in place.
  @inlinable
  func forgetLastSlice() {
    guard _lastSlice != nil else { return }
    // Released after the write: the slice's deinitializers are the application's.
    let forgotten = _lastSlice
    _lastSlice = nil
    _hasForgottenSlice = true
    withExtendedLifetime(forgotten) {}
  }

  /// `==` on `S`, when `S` is `Equatable`.
  static func makeSliceEquality() -> (@MainActor (S, S) -> Bool)? {
    guard let equatable = S.self as? any Equatable.Type else { return nil }
    return equality(as: equatable)
  }

  private static func equality<T: Equatable>(as _: T.Type) -> @MainActor (S, S) -> Bool {
    // Proof for `unsafeBitCast`: it runs only when `T` is `S` itself, checked once here by
    // metatype identity (opening `S.self` gives `S`, but the check does not rely on that), so
    // reinterpreting a value of `S` as `T` is the identity: same size, same layout, same
    // ownership. Otherwise each comparison takes the checked dynamic cast. A dynamic cast per
    // comparison would cost more than most `==`. The `==` it calls is the application's, and
    // runs on copies outside any unchecked access (see `isUnchangedSinceEvaluated(_:)`).
    guard ObjectIdentifier(T.self) == ObjectIdentifier(S.self) else {
      return { lhs, rhs in _isSame(lhs, rhs) }
    }
    return { lhs, rhs in unsafeBitCast(lhs, to: T.self) == unsafeBitCast(rhs, to: T.self) }
  }

  /// Whether two slices are equal, when the state is `Equatable`; otherwise assumed different.
  @usableFromInline
  static func _isSame(_ lhs: S, _ rhs: S) -> Bool {
    guard let lhs = lhs as? any Equatable else { return false }
    return isEqual(lhs, rhs)
  }

  private static func isEqual<T: Equatable>(_ lhs: T, _ rhs: Any) -> Bool {
    (rhs as? T).map { $0 == lhs } ?? false
  }
}
