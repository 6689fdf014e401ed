import Synchronization

/// A scope's registration while the scope has listeners or subscribers: with its root, or, for
/// a scope at or under an element scope, with its element's ``_ElementScopeGroup``.
///
/// Whoever holds it keeps the scoped store alive, so a subscription token keeps working even
/// when nobody holds the scope itself; once the scope has no observers left the node is
/// dropped, and with it the scope.
@usableFromInline
@MainActor
package final class _ScopeNode {
  // The three fields a notification reads come first, so that they share a cache line.
  /// False once the scope has no observers; its holder then drops the node.
  @usableFromInline var _isActive = true
  /// The group's notification round the node was last refreshed in: an element the journal
  /// names twice is refreshed once.
  @usableFromInline var _round: UInt64 = 0
  /// Notifies the scope; returns false once it has no observers left.
  @usableFromInline let _refresh: @MainActor (_SliceOrigin) -> Bool
  /// Whether the scope has `(old, new)` listeners, so the root must capture the slice first.
  @usableFromInline var _keepsOldSlice = false {
    didSet {
      guard _keepsOldSlice != oldValue else { return }
      _container?._listeningChanged(_keepsOldSlice)
      _mirror?._needsRebuild = true
    }
  }
  /// Whether the scope keeps its slice for `==`; see `Store.lastSlice`.
  @usableFromInline var _keepsLastSlice = false {
    didSet {
      if _keepsLastSlice != oldValue { _mirror?._needsRebuild = true }
    }
  }
  /// The root's mirror of kept slices, while the node is registered with a root.
  @usableFromInline var _mirror: _ScopeMirror?
  /// Whether the root's mirror covers this scope: set when the root builds its lists, for a
  /// scope whose slice lies at ``mirrorRange``, is kept for `==`, and has no `(old, new)`
  /// listener (which needs the slice captured before every update).
  @usableFromInline var _isMirrorMember = false
  /// Whether the scope keeps a slice now (its `Store.lastSlice` is set).
  @usableFromInline var _holdsSlice = false
  /// Whether the mirror holds the bytes of the slice the scope keeps now; any new kept slice
  /// clears it until the root copies the bytes the slice was read from.
  @usableFromInline var _isMirrored = false {
    didSet {
      if _isMirrorMember, _isMirrored != oldValue { _mirror?._unmirrored += _isMirrored ? -1 : 1 }
    }
  }
  /// The element group holding the node, told when ``_keepsOldSlice`` changes.
  ///
  /// Not a weak reference, which would give the group a side table (see
  /// `ElementScopeEntry.group`).
  // Unchecked lifetime: set by the group itself as it files the node (`add`), and cleared when
  // the group drops the node (`_remove`) and by the group's isolated deinitializer as it begins;
  // every access is on the main actor. The proof of `Store.ownScopeNode` applies as it is.
  // Tests: `ScopeNodeLifetimeTests`.
  @usableFromInline unowned(unsafe) var _container: _ElementScopeGroupBase?
  /// Called by the deinitializer, so that whoever refers to the node without keeping it alive
  /// (its scope's `ownScopeNode`, its group's `node`) forgets it.
  @usableFromInline var _onRelease: (@MainActor (_ScopeNode) -> Void)?
  @usableFromInline let _capture: @MainActor () -> Void
  /// Sweeps the scope's cancelled subscriptions; returns whether it still has observers.
  @usableFromInline let _sweep: @MainActor () -> Bool
  /// Where the scope's slice lies in the root.
  @usableFromInline let _origin: _SliceOrigin
  /// Drops the slice kept for `==`, before an update that may change it in place.
  @usableFromInline let _forgetSlice: @MainActor () -> Void

  /// The root's bytes the slice lies in, when it is a stored property of the root.
  @inlinable
  var mirrorRange: Range<Int>? {
    guard case .bytes(let range) = _origin else { return nil }
    return range
  }

  /// Records that the scope replaced or dropped the slice it keeps for `==`.
  @inlinable
  func keptSliceReplaced(isHeld: Bool) {
    _holdsSlice = isHeld
    _isMirrored = false
  }

  @usableFromInline
  init(
    capture: @escaping @MainActor () -> Void,
    refresh: @escaping @MainActor (_SliceOrigin) -> Bool,
    sweep: @escaping @MainActor () -> Bool, origin: _SliceOrigin = .everything,
    forgetSlice: @escaping @MainActor () -> Void = {}
  ) {
    self._capture = capture
    self._refresh = refresh
    self._sweep = sweep
    self._origin = origin
    self._forgetSlice = forgetSlice
  }

  // Isolated, so that the references to the node that do not keep it alive are cleared on the
  // main actor, where they are read, before the node is destroyed (see `Store.ownScopeNode`).
  isolated deinit {
    _onRelease?(self)
  }
}

/// The scope's side of its node: how a scoped store is made, registers with its root, and is
/// notified by it.
extension Store {
  /// Creates a scope: a store with no state of its own, reading and dispatching through `link`.
  @usableFromInline
  convenience init(scope link: _ScopeLink<S>, dependencies: Dependencies) {
    self.init(link: link, dependencies: dependencies)
    // Element scopes and the scopes under them are notified only for their changed element,
    // through the array's journal, so they keep no slice to compare.
    if !link._isUnderElement { link._sliceEquality = Self.makeSliceEquality() }
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

  /// Observes the updaters dispatched through this scope, as the root applies them.
  func observeScopedUpdates(
    link: _ScopeLink<S>, _ observer: @escaping @MainActor (AppliedUpdate<S>) -> Void
  ) -> Subscription {
    guard let root = link.root else { return Subscription {} }
    let identity = link._identity
    return root.observeUpdatesFromScope { updater, cause, sequence, site in
      var current: any Dispatchable = updater
      while let scoped = current as? any _ScopedUpdaterPlumbing {
        if scoped.scopeIdentity === identity, let inner = scoped.wrapped as? any StateUpdater<S> {
          observer(AppliedUpdate(updater: inner, cause: cause, sequence: sequence, site: site))
          return
        }
        current = scoped.wrapped
      }
    }
  }

  /// Registers this scope with its root once it has observers, and keeps the root's view of
  /// whether it listens up to date.
  func scopeObserversChanged(link: _ScopeLink<S>) {
    guard link.root != nil else { return }
    if _selectionOrder.isEmpty {
      link._lastSlice = nil
      link._hasForgottenSlice = false
    } else if link._lastSlice == nil, !link._hasForgottenSlice, link._sliceEquality != nil {
      // The first view-model or key-path subscriber, evaluated on the slice as it is now (not
      // after a drop: the others were evaluated on the slice before the update in progress).
      link._lastSlice = link._read()
    }
    if _hasObservers, link.ownScopeNode == nil {
      let node =
        link._makeScopeNode?()
        ?? _ScopeNode(
          capture: { [link] in link.captureSlice() },
          refresh: { [self] _origin in self.refreshAsScope(origin: _origin) },
          sweep: { [self] in self.sweepAsScope() })
      link.ownScopeNode = node
      node._onRelease = { [link] node in
        if link.ownScopeNode === node { link.ownScopeNode = nil }
      }
      node._holdsSlice = link._lastSlice != nil
      node._keepsOldSlice = !_listeners.isEmpty
      node._keepsLastSlice = link._lastSlice != nil || link._hasForgottenSlice
      link._register(node)
      link._observersChanged()
      return
    }
    link.ownScopeNode?._keepsOldSlice = !_listeners.isEmpty
    link.ownScopeNode?._keepsLastSlice = link._lastSlice != nil || link._hasForgottenSlice
    link._observersChanged()
  }

  /// What makes this scope's node, specialised for the application's types where the scope is
  /// made: each closure captures the store alone, so that its context is the store itself and
  /// a refresh fetches no box of its own (with a thousand element scopes, one more object out
  /// of the cache on every dispatch).
  ///
  /// Weak, as the scope cache holds scopes: the link that keeps the maker must not keep its
  /// own store alive.
  @inlinable
  static func _nodeMaker(for scope: Store, link: _ScopeLink<S>) -> @MainActor () -> _ScopeNode? {
    // The link keeps this maker: it holds the link unowned, and runs only while the link is.
    { [weak scope, unowned link] in
      guard let _store = scope else { return nil }
      return _ScopeNode(
        capture: { [link] in link.captureSlice() },
        refresh: { [_store] _origin in _store.refreshAsScope(origin: _origin) },
        sweep: { [_store] in _store.sweepAsScope() },
        origin: link._origin,
        forgetSlice: { [link] in link.forgetLastSlice() })
    }
  }

  /// Sweeps this scope's cancelled subscriptions; returns whether it still has observers.
  @inlinable
  func sweepAsScope() -> Bool {
    if _cancellationLog._count.load(ordering: .relaxed) != 0 { _sweepCancelledEntries() }
    guard _hasObservers else {
      giveUpScopeNode()
      return false
    }
    return true
  }

  /// Forgets this scope's node, which its holder is told to drop: a subscriber that joins
  /// before the holder drops it registers a new node.
  @usableFromInline
  func giveUpScopeNode() {
    _scopeLink?.ownScopeNode = nil
  }

  /// Notifies this scope's observers after an update of the root; returns false once it has
  /// none left.
  ///
  /// View-model and key-path subscribers are evaluated only when the slice may have changed:
  /// the update's bytes overlap the slice's, and, for an `Equatable` slice, the slice is not
  /// `==` to the one they were last evaluated on (compared once per update, not per subscriber).
  @inlinable
  func refreshAsScope(origin: _SliceOrigin) -> Bool {
    refreshAsScope(origin: origin, link: _scopeLink)
  }

  /// `refreshAsScope(origin:)` with the scope's link, `_scopeLink`, lent by the caller.
  @inlinable
  func refreshAsScope(origin: _SliceOrigin, link: _ScopeLink<S>?) -> Bool {
    if hasCancellations(link: link) { _sweepCancelledEntries() }
    guard let link else { return false }
    var old: S?
    if link._holdsCapturedSlice {
      // Copied out before it is cleared, so that the write releases nothing.
      old = link._capturedSlice
      link._capturedSlice = nil
      link._holdsCapturedSlice = false
    }
    guard _hasObservers else {
      giveUpScopeNode()
      return false
    }
    guard origin.mayChange(link._origin), let slice = link._read() else { return true }
    if let old, !_listeners.isEmpty, !Self._isSame(old, slice) {
      for entry in _listeners { entry.callback?(old, slice) }
    }
    // A scope at or under an element scope keeps no slice to compare (`sliceEquality` is nil,
    // see `init(scope:dependencies:)`), so it is not asked, and that field not read.
    if let sole = _soleSelection {
      if link._isUnderElement || !link.isUnchangedSinceEvaluated(slice) {
        link._version &+= 1
        sole.refresh(slice, version: link._version)
      }
    } else if !_selectionOrder.isEmpty,
      link._isUnderElement || !link.isUnchangedSinceEvaluated(slice)
    {
      link._version &+= 1
      for group in _selectionOrder { group.refresh(slice, version: link._version) }
    }
    if !_elementOrder.isEmpty {
      for group in _elementOrder { group.refresh(slice) }
    }
    return true
  }

  /// Whether tokens of this scope were cancelled since its last sweep.
  ///
  /// A scope at or under an element scope is notified by its element's group, which sweeps
  /// every member (this scope's own log included) whenever the group's log, which each
  /// member's cancellation also notes, is set: while the group's log is clear, so is this
  /// scope's, and this scope's log, one more object to fetch on every dispatch through its
  /// element, is not read. Bindings end before the caller's sweep, so nothing is retained.
  @inlinable @inline(__always)
  func hasCancellations(link: _ScopeLink<S>?) -> Bool {
    if let link, link._isUnderElement, let relay = link._relay,
      relay._count.load(ordering: .relaxed) == 0
    {
      return false
    }
    return _cancellationLog._count.load(ordering: .relaxed) != 0
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

/// The scope's notification side, on the fields its runtime keeps.
extension _ScopeLink {
  /// The slice kept for `==` (see ``_keptSlice``); setting it tells the scope's node.
  @inlinable
  var _lastSlice: Sub? {
    get { _keptSlice }
    set {
      _keptSlice = newValue
      ownScopeNode?.keptSliceReplaced(isHeld: newValue != nil)
    }
  }

  /// Keeps the slice from before an update for the scope's `(old, new)` listeners.
  @inlinable
  func captureSlice() {
    var slice = _read()
    // Swapped rather than assigned: a slice still kept is released from `slice`, after the
    // write (see `capturedSlice`).
    swap(&_capturedSlice, &slice)
    _holdsCapturedSlice = _capturedSlice != nil
  }

  /// Whether `slice` is `==` to the slice the view-model and key-path subscribers were last
  /// evaluated on; remembers it for the next update.
  ///
  /// `==` is the app's code. It runs on copies, with no access to the store's lists open, while
  /// the root is notifying: a dispatch it makes is queued, a subscription it makes joins the
  /// lists for the next update.
  @inlinable
  func isUnchangedSinceEvaluated(_ slice: Sub) -> Bool {
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
}
