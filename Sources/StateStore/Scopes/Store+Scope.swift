import Synchronization

extension Store {
  /// A store for the feature that owns the slice at `keyPath`, with its own dependencies.
  ///
  /// The scope is a window on this store: it has no state of its own, its dispatches join the
  /// root's queue, and this store's listeners, interceptors and action log see them. Feature
  /// code gets a `Store` and cannot tell a scope from a root:
  ///
  /// ```swift
  /// let profile = app.scope(state: \.profile, dependencies: \.profile)
  /// profile.dispatch(Rename(name: "Ada"))      // app.state.profile.name == "Ada"
  /// try await profile.dispatch(SaveProfile())  // context typed to the feature
  /// ```
  ///
  /// Asking again for the same slice and dependencies while the scope is alive returns the same
  /// store, so its subscribers and running effects are shared. A scope does not keep its root
  /// alive: once the root is released, its dispatches are dropped and reported to
  /// ``onUnhandledError``.
  ///
  /// - Parameters:
  ///   - keyPath: Where the feature's state lies in this store's state.
  ///   - dependencies: Where the feature's dependencies lie in this store's dependencies.
  ///   - name: The scope's name in an action log; by default the key path's, `profile` here.
  /// - Complexity: O(1).
  @inlinable
  public func scope<Slice: State, SliceDependencies: Sendable>(
    state keyPath: any (WritableKeyPath<S, Slice> & Sendable),
    dependencies: KeyPath<Dependencies, SliceDependencies>, name: String? = nil
  ) -> Store<Slice, SliceDependencies> {
    let name = name ?? _ScopeLink<S>._name(of: keyPath)
    return scope(
      under: _ScopeKey(state: keyPath, dependencies: dependencies, element: nil, name: name)
    ) {
      Store<Slice, SliceDependencies>(
        scope: linkForScopes.child(keyPath, name: name),
        dependencies: self.dependencies[keyPath: dependencies])
    }
  }

  /// A store for the feature that owns the slice at `keyPath`, sharing this store's
  /// dependencies.
  ///
  /// - Complexity: O(1).
  @inlinable
  public func scope<Slice: State>(
    state keyPath: any (WritableKeyPath<S, Slice> & Sendable), name: String? = nil
  ) -> Store<Slice, Dependencies> {
    scope(state: keyPath, dependencies: \.self, name: name)
  }

  /// A store for one element of a ``TrackedArray``, by id: the store of a row feature.
  ///
  /// Its state is the element. Once the element is removed, its dispatches are dropped and
  /// reported to ``onUnhandledError`` with an error naming the id; nothing traps.
  ///
  /// ```swift
  /// let row = app.scope(state: \.todos, id: todo.id, dependencies: \.row)
  /// row.dispatch(ToggleDone())
  /// ```
  ///
  /// - Complexity: O(1).
  @inlinable
  public func scope<Element: State & Identifiable, ElementDependencies: Sendable>(
    state keyPath: any (WritableKeyPath<S, TrackedArray<Element>> & Sendable), id: Element.ID,
    dependencies: KeyPath<Dependencies, ElementDependencies>, name: String? = nil
  ) -> Store<Element, ElementDependencies> where Element.ID: Sendable {
    let name = name ?? _ScopeLink<S>._name(of: keyPath)
    return scope(
      under: _ScopeKey(
        state: keyPath, dependencies: dependencies, element: AnyHashable(id), name: name)
    ) {
      Store<Element, ElementDependencies>(
        scope: linkForScopes.element(keyPath, id: id, name: name),
        dependencies: self.dependencies[keyPath: dependencies])
    }
  }

  /// A store for one element of a ``TrackedArray``, by id, sharing this store's dependencies.
  ///
  /// - Complexity: O(1).
  @inlinable
  public func scope<Element: State & Identifiable>(
    state keyPath: any (WritableKeyPath<S, TrackedArray<Element>> & Sendable), id: Element.ID,
    name: String? = nil
  ) -> Store<Element, Dependencies> where Element.ID: Sendable {
    scope(state: keyPath, id: id, dependencies: \.self, name: name)
  }

  /// The scope kept under `key` while it is alive, or a new one from `make`, then kept: the one
  /// look-up every `scope` method makes, so that one slice and dependencies give one scope.
  ///
  /// - Complexity: O(1).
  @inlinable
  func scope<Slice: State, SliceDependencies: Sendable>(
    under key: _ScopeKey, make: () -> Store<Slice, SliceDependencies>
  ) -> Store<Slice, SliceDependencies> {
    if let cached = _scopeCache[key]?._store as? Store<Slice, SliceDependencies> { return cached }
    let scope = make()
    remember(scope, under: key)
    return scope
  }

  /// The scope's path from the root, its levels joined by `/` (`profile`, `profile/avatar`);
  /// `nil` for a root store.
  public var scopePath: String? { _scopeLink?._path }

  /// The root store this store is a window on.
  ///
  /// Itself at the root; `nil` once a scope's root is released. Navigation mirrors the route
  /// into it when a scope navigates.
  package var rootStore: AnyObject? { _scopeLink == nil ? self : _scopeLink?.root }

  /// The link scopes of this store compose: its own as a scope, or one to itself as the root.
  @inlinable
  var linkForScopes: _ScopeLink<S> {
    if let _scopeLink { return _scopeLink }
    if let _rootLink { return _rootLink }
    // Not a weak reference: see `RootHandle`. The root clears it as its deinitializer begins.
    let root = _RootReference(self)
    _rootReference = root
    let mirror = _ScopeMirror(size: MemoryLayout<S>.size)
    _scopeMirror = mirror
    let link = _ScopeLink<S>(
      rootHandle: root, path: "", name: "", origin: .bytes(0..<MemoryLayout<S>.size),
      identity: _ScopeIdentity(),
      read: { root.store?._currentState },
      peek: { body in
        guard let store = root.store else { return false }
        store.peekState(body)
        return true
      },
      withSlice: { origin, body in
        guard let store = root.store else { return .dropped(.rootReleased) }
        return store.applyInPlace(origin: origin, body)
      },
      forward: { updater in
        guard let store = root.store else { return .dropped(.rootReleased) }
        store._enqueueFromScope(updater)
        return .applied
      },
      dropReason: { root.store == nil ? .rootReleased : nil },
      register: { node in root.store?._addScopeNode(node) },
      observersChanged: { root.store?._refreshHasObservers() }, relay: mirror._cancellations,
      isUnderElement: false)
    _rootLink = link
    return link
  }

  /// Keeps `scope` under `key`, and gives it its node maker, specialised here.
  @inlinable
  func remember<Slice: State, SliceDependencies: Sendable>(
    _ scope: Store<Slice, SliceDependencies>, under key: _ScopeKey
  ) {
    scope._makeScopeNode = { _store in
      _ScopeNode(
        capture: { [_store] in _store._capturedSlice = _store._scopeLink?._read() },
        refresh: { [_store] _origin in _store.refreshAsScope(origin: _origin) },
        sweep: { [_store] in _store.sweepAsScope() },
        origin: _store._scopeLink?._origin ?? .everything,
        forgetSlice: { [_store] in _store.forgetLastSlice() })
    }
    _rememberScope(scope, under: key)
  }

  @usableFromInline
  func _rememberScope(_ scope: AnyObject, under key: _ScopeKey) {
    _scopeCache = _scopeCache.filter { $0.value._store != nil }
    _scopeCache[key] = _WeakScope(scope)
  }

  // MARK: - The root's side

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
  func _addScopeNode(_ node: _ScopeNode) {
    node._mirror = _scopeMirror
    _scopeMirror?._needsRebuild = true
    _scopeNodes.append(node)
    _refreshHasObservers()
  }

  /// Lets scopes with `(old, new)` listeners keep their slice from before the update.
  @usableFromInline
  func _captureScopeSlices() {
    for node in _scopeNodes where node._keepsOldSlice { node._capture() }
  }

  /// Notifies the scopes with observers; drops those left without any.
  ///
  /// A scope in the mirror (a stored, `Equatable` slice kept for `==`) is skipped when the
  /// root's bytes at its slice still equal the kept slice's (see ``ScopeMirror``): when all
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
  func notifyScopes(origin: () -> _SliceOrigin) {
    guard let mirror = _scopeMirror else {
      _refreshScopes(_scopeNodes, origin: origin(), skippingMirrored: nil)
      return
    }
    if mirror._needsRebuild { _rebuildMirror(mirror) }
    if mirror._cancellations._count.load(ordering: .relaxed) != 0 {
      mirror._cancellations._count.store(0, ordering: .relaxed)
      _refreshScopes(_scopeNodes, origin: origin(), skippingMirrored: nil)
    } else if mirror._unmirrored == 0, mirroredBytesMatch(mirror, in: nil) {
      if !_unmirroredScopeNodes.isEmpty {
        _refreshScopes(_unmirroredScopeNodes, origin: origin(), skippingMirrored: nil)
      }
    } else {
      _refreshScopes(_scopeNodes, origin: origin(), skippingMirrored: mirror)
    }
  }

  /// Refreshes `nodes`, except, with a mirror, the mirrored ones whose bytes match; copies the
  /// bytes of each member's newly kept slice into the mirror; drops the nodes left without
  /// observers.
  @usableFromInline
  func _refreshScopes(_ nodes: [_ScopeNode], origin: _SliceOrigin, skippingMirrored: _ScopeMirror?)
  {
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
        let mirror = _scopeMirror,
        let range = node.mirrorRange
      {
        // The scope took its slice from the root during this refresh, and the root cannot
        // change while it notifies (a dispatch from a subscriber is queued), so these bytes
        // are the kept slice's.
        _ScopeLink<S>.withAddress(of: &_currentState) { mirror.take($0, in: range) }
        node._isMirrored = true
      }
    }
    guard emptied else { return }
    // Released only after the write: see the proof at `scopeNodes`.
    let before = _scopeNodes
    defer { withExtendedLifetime(before) {} }
    _scopeNodes.removeAll { !$0._isActive }
    if let _scopeMirror { _rebuildMirror(_scopeMirror) }
    _refreshHasObservers()
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

  /// The part of the state `updater` could have changed: its scope's slice, if it is scoped.
  @usableFromInline
  static func _origin(of updater: some StateUpdater<S>) -> _SliceOrigin {
    (updater as? any _ScopedUpdaterPlumbing)?.scopedOrigin ?? .everything
  }
}

extension Store: _ScopeRoot {
  @usableFromInline package var rootIsApplyingUpdater: Bool { _isApplyingUpdater }

  @usableFromInline package func runAsRootCallback(_ callback: () -> Void) {
    runAsStoreCallback(callback)
  }

  @usableFromInline package func interceptFromScope(
    _ dispatchable: any Dispatchable,
    then perform: @escaping @MainActor (any Dispatchable) -> Bool
  ) {
    intercept(dispatchable, then: perform)
  }

  @usableFromInline package func reportFromScope(
    _ error: any Error, _ dispatchable: any Dispatchable
  ) {
    onUnhandledError(error, dispatchable)
  }

  @usableFromInline package func observeUpdatesFromScope(
    _ observer: @escaping @MainActor (any Dispatchable, DispatchCause?, UInt64) -> Void
  ) -> Subscription {
    observeUpdates { observer($0.updater, $0.cause, $0.sequence) }
  }
}
